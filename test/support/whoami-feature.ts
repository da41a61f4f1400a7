import { Controller, Get, Module } from '@nestjs/common';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../src/platform/http/access';

/** Routes for exercising the token guard: one per access rule. */
@Controller('test/access')
class AccessController {
  @Get('any')
  @AnyToken()
  any(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }

  @Get('undecorated')
  undecorated(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }

  @Get('read')
  @RequireScope('read')
  read(): { ok: true } {
    return { ok: true };
  }

  @Get('purchase')
  @RequireScope('purchase')
  purchase(): { ok: true } {
    return { ok: true };
  }

  @Get('download')
  @RequireScope('download')
  download(): { ok: true } {
    return { ok: true };
  }

  @Get('sell')
  @RequireScope('sell')
  sell(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [AccessController] })
export class AccessFeatureModule {}
