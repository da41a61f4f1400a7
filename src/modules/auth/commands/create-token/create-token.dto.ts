import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsString, IsUUID, Max, Min } from 'class-validator';
import { CodePoints, Optional, SingleLine } from '../../../../platform/http/validation';
import { Scope, SCOPES } from '../../domain/api-token';

export class CreateTokenDto {
  /** A label to recognise the token by, e.g. the machine or agent using it. */
  @IsString()
  @CodePoints(1, 100)
  @SingleLine()
  name: string;

  /** A subset of the scopes of the token making the request. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(SCOPES, { each: true })
  scopes: Scope[];

  /** Days until the token stops working; omit for no expiry (null is refused). */
  @Optional()
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;

  /**
   * One of the caller's spend policies (active or not, not deleted) to enforce on every purchase made with the
   * token. A token bound to a policy may only create tokens bound to the same one: omitted, that is the default.
   */
  @Optional()
  @IsUUID()
  policyId?: string;
}
