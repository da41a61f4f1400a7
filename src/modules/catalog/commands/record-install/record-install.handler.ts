import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { InstallRecorded, installIdFor, installsStreamId } from '../../domain/installs';
import { CatalogEvents } from '../../events';
import { RecordInstallCommand } from './record-install.command';

/**
 * Appends `InstallRecorded` with an id derived from the user, listing and UTC
 * day: the day's first download stores it, every later one (and any retry)
 * re-appends the stored id, a no-op. The projection dedupes by day as well,
 * so a count can never move twice for one user and day.
 */
@CommandHandler(RecordInstallCommand)
export class RecordInstallHandler implements ICommandHandler<RecordInstallCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ listingId, userId }: RecordInstallCommand): Promise<void> {
    const now = this.clock.now();
    const recorded: InstallRecorded = {
      type: CatalogEvents.InstallRecorded,
      data: { listingId, userId, recordedAt: now.toISOString() },
    };
    // `any`: installs of one listing by different users never conflict.
    await this.store.append(installsStreamId(listingId), [{ eventId: installIdFor(userId, listingId, now), ...recorded }], 'any');
  }
}
