import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { PersonalDataVault } from '../../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../../../platform/clock/clock';
import { userDecider, userStreamId, validUserName } from '../../domain/user.decider';
import { ChangeProfileCommand } from './change-profile.command';

@CommandHandler(ChangeProfileCommand)
export class ChangeProfileHandler implements ICommandHandler<ChangeProfileCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly vault: PersonalDataVault,
    private readonly clock: Clock,
  ) {}

  async execute({ userId, change }: ChangeProfileCommand): Promise<void> {
    const name = typeof change.name === 'string' ? validUserName(change.name) : change.name;
    const seal = async (value: string | null | undefined) =>
      value === undefined || value === null ? value : this.vault.seal(userId, value);
    await decideOnStream(this.store, userStreamId(userId), userDecider, {
      type: 'ChangeProfile',
      name: await seal(name),
      avatarUrl: await seal(change.avatarUrl),
      now: this.clock.now(),
    });
  }
}
