import { IsString, MaxLength } from 'class-validator';

/**
 * The query of a signed download URL, as `POST /v1/downloads` issued it. Only
 * presence and size are checked here; whether the values are genuine is the
 * signature's to say (403), so nothing about a forged link is echoed back.
 */
export class DownloadLinkQueryDto {
  /** The user the link was issued to. */
  @IsString()
  @MaxLength(64)
  user: string;

  /** When the link expires, in Unix seconds. */
  @IsString()
  @MaxLength(32)
  expires: string;

  /** HMAC-SHA256 of the release, user and expiry, in hex. */
  @IsString()
  @MaxLength(256)
  signature: string;
}
