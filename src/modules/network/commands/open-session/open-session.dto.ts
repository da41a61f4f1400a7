import { IsIn, IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { MultiLine, Optional } from '../../../../platform/http/validation';
import { IsSmallJsonDocument } from '../../../catalog/commands/update-listing/small-json-document';

export const SESSION_SETTLEMENT_METHODS = ['pay_mpp', 'pay_acp', 'free', 'wallet'] as const;

export class OpenSessionDto {
  /** The vendor's slug. */
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  vendor: string;

  /** The listing's slug. */
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  slug: string;

  /** Sent as the session's first message, an `intent.open` with payload {text}. */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(4000)
  @MultiLine()
  intent?: string;

  @Optional()
  @IsObject({ message: 'context must be a JSON object' })
  @IsSmallJsonDocument(16 * 1024)
  context?: Record<string, unknown>;

  /** `wallet` and `free` work; `pay_mpp` and `pay_acp` are refused (422) until they exist. */
  @Optional()
  @IsIn(SESSION_SETTLEMENT_METHODS)
  settlementMethod?: (typeof SESSION_SETTLEMENT_METHODS)[number];
}
