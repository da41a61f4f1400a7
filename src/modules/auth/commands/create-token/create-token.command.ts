import { ApiProperty } from '@nestjs/swagger';
import { Principal } from '../../../../platform/http/access';
import { Scope } from '../../domain/api-token';
import { TokenListItem } from '../../queries/list-tokens/list-tokens.query';

/** A caller makes a restricted token from its own: never more scopes than it has. */
export class CreateTokenCommand {
  constructor(
    readonly caller: Principal,
    readonly request: { name: string; scopes: Scope[]; expiresInDays?: number; policyId?: string },
  ) {}
}

export class CreatedToken extends TokenListItem {
  @ApiProperty({ description: 'The token itself, starting with svc_. Shown once: only its hash is stored.' }) token: string;
}
