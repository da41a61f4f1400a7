import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { SigningKeysService } from '../commands/signing-keys.service';
import { VendorDirectory } from '../queries/vendor-directory';
import { RegisterSigningKeyDto } from './vendor-profile.dto';
import { Ok, SigningKeyRegistered, SigningKeys } from './vendor-responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/keys')
export class SigningKeysController {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly directory: VendorDirectory,
    private readonly dataSource: DataSource,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @ApiOkResponse({ type: SigningKeys })
  async list(@CurrentPrincipal() principal: Principal): Promise<SigningKeys> {
    await this.directory.require(principal.userId);
    const [active] = await this.dataSource.query(
      `SELECT public_key, fingerprint FROM vendor_signing_keys WHERE vendor_id = $1 AND status = 'active'`,
      [principal.userId],
    );
    const log = await this.dataSource.query(
      'SELECT action, fingerprint, created_at FROM vendor_signing_key_log WHERE vendor_id = $1 ORDER BY id DESC',
      [principal.userId],
    );
    return {
      activeKey: active ? { publicKey: active.public_key, fingerprint: active.fingerprint } : null,
      log: log.map((row: { action: string; fingerprint: string; created_at: Date }) => ({
        action: row.action,
        fingerprint: row.fingerprint,
        createdAt: new Date(row.created_at).toISOString(),
      })),
    };
  }

  /** The first key is a `register`; a later one a `rotate`, after which the old key no longer verifies uploads. */
  @Post()
  @ApiCreatedResponse({ type: SigningKeyRegistered })
  async register(@CurrentPrincipal() principal: Principal, @Body() body: RegisterSigningKeyDto): Promise<SigningKeyRegistered> {
    await this.directory.require(principal.userId);
    const result = await this.keys.register(principal.userId, body.publicKey, body.fingerprint);
    await this.waiter.catchUpWithThisRequest();
    return result;
  }

  @Delete(':fingerprint')
  @ApiOkResponse({ type: Ok })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('fingerprint') fingerprint: string): Promise<Ok> {
    await this.directory.require(principal.userId);
    await this.keys.revoke(principal.userId, fingerprint);
    await this.waiter.catchUpWithThisRequest();
    return { ok: true };
  }
}
