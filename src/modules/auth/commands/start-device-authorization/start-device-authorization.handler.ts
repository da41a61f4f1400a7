import { randomBytes } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { SCOPES } from '../../domain/api-token';
import {
  decideDeviceCode,
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  generateUserCode,
} from '../../domain/device-code.decider';
import { deviceStreamId } from '../../domain/device-code-stream';
import { DeviceCodesReader } from '../../read-models/device-codes.reader';
import { DeviceAuthorization, StartDeviceAuthorizationCommand } from './start-device-authorization.command';

@CommandHandler(StartDeviceAuthorizationCommand)
export class StartDeviceAuthorizationHandler implements ICommandHandler<StartDeviceAuthorizationCommand, DeviceAuthorization> {
  constructor(
    private readonly store: EventStore,
    private readonly deviceCodes: DeviceCodesReader,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ clientName }: StartDeviceAuthorizationCommand): Promise<DeviceAuthorization> {
    const deviceCode = randomBytes(32).toString('base64url');
    const userCode = await this.freeUserCode();
    const events = decideDeviceCode(
      { type: 'IssueDeviceCode', userCode, scopes: [...SCOPES], clientName, now: this.clock.now() },
      { status: 'none' },
    );
    await this.store.append(deviceStreamId(deviceCode), events, 'no_stream');
    return {
      deviceCode,
      userCode,
      verificationUri: `${this.config.webUrl}/device`,
      expiresIn: DEVICE_CODE_LIFETIME_SECONDS,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    };
  }

  /** User codes are short: draw again in the (rare) case one is still waiting elsewhere. */
  private async freeUserCode(): Promise<string> {
    for (;;) {
      const code = generateUserCode(randomBytes);
      if (!(await this.deviceCodes.isUserCodeWaiting(code, this.clock.now()))) return code;
    }
  }
}
