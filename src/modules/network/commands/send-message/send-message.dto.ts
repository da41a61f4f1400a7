import { IsObject, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../../../platform/http/validation';
import { IsSmallJsonDocument } from '../../../catalog/commands/update-listing/small-json-document';

/** A message's payload, as JSON: 64 KiB. */
export const MAX_MESSAGE_PAYLOAD_BYTES = 64 * 1024;

export class SendMessageDto {
  /** A dotted name such as `quote.request`, 1-64 characters. */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @Matches(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, { message: 'type must be a dotted name such as quote.request' })
  type: string;

  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  @Matches(/^[\x21-\x7e]+$/, { message: 'correlationId must be visible ASCII characters' })
  correlationId?: string;

  @IsObject({ message: 'payload must be a JSON object' })
  @IsSmallJsonDocument(MAX_MESSAGE_PAYLOAD_BYTES)
  payload: Record<string, unknown>;
}
