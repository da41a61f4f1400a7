import { IsInt, IsObject, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../../../platform/http/validation';
import { IsSmallJsonDocument } from '../../../catalog/commands/update-listing/small-json-document';

/** 64 KiB: a tool's arguments, as JSON. */
export const MAX_CALL_INPUT_BYTES = 64 * 1024;

export class CallServiceDto {
  /** The tool's name as the service lists it. */
  @IsString()
  @MaxLength(128)
  @Matches(/^[A-Za-z0-9_./:-]+$/, { message: 'tool must be 1-128 letters, digits or _ . / : -' })
  tool: string;

  @Optional()
  @IsObject({ message: 'input must be a JSON object' })
  @IsSmallJsonDocument(MAX_CALL_INPUT_BYTES)
  input?: Record<string, unknown>;

  /** A ceiling: a per-call cost above it is refused (402) and nothing is charged. */
  @Optional()
  @IsInt({ message: 'maxCostCents must be an integer number of cents' })
  @Min(0)
  @Max(100_000_000)
  maxCostCents?: number;

  /** An open session of the caller on this listing; the call is attached to it. */
  @Optional()
  @IsUUID('all', { message: 'sessionId must be a UUID' })
  sessionId?: string;
}
