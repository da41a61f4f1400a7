import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';
import { CodePoints, SingleLine } from '../../../../platform/http/validation';
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

  /** Days until the token stops working; omit for no expiry. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;

  /** One of the caller's spend policies (active or not, not deleted) to enforce on every purchase made with the token. */
  @IsOptional()
  @IsUUID()
  policyId?: string;
}
