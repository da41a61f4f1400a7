import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { expectedAt, foldStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { vendorDecider, VendorEvent, vendorStreamId, VendorState } from '../../domain/vendor.decider';
import { VendorEvents } from '../../events';
import { SavedVendorProfile, SaveVendorProfileCommand } from './save-vendor-profile.command';

/**
 * Slug uniqueness: a reservation stream per slug, appended in the same
 * transaction as the profile. A slug is never released, even when its vendor
 * moves to another: links to `/v1/listings/<old-slug>/...` must never start
 * serving another vendor's packages.
 */
const slugStreamId = (slug: string) => `vendor-slug-${slug}`;

@CommandHandler(SaveVendorProfileCommand)
export class SaveVendorProfileHandler implements ICommandHandler<SaveVendorProfileCommand, SavedVendorProfile> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ vendorId, changes }: SaveVendorProfileCommand): Promise<SavedVendorProfile> {
    const streamId = vendorStreamId(vendorId);
    const { state, revision } = await foldStream<VendorState, VendorEvent>(
      this.store,
      streamId,
      vendorDecider.evolve,
      vendorDecider.initialState,
    );
    const events = vendorDecider.decide({ type: 'SaveProfile', vendorId, now: this.clock.now(), ...changes }, state);
    const appends: StreamAppend[] = [{ streamId, events, expected: expectedAt(revision) }];
    if (!state.exists || state.slug !== changes.slug) {
      const wanted = await this.store.readStream(slugStreamId(changes.slug));
      const holder = wanted[wanted.length - 1];
      if (holder && holder.data.vendorId !== vendorId)
        throw new DomainError('conflict', `The vendor slug "${changes.slug}" is taken`);
      // Returning to a slug the vendor held before needs no new reservation.
      if (!holder) {
        appends.push({
          streamId: slugStreamId(changes.slug),
          events: [{ type: VendorEvents.VendorSlugReserved, data: { vendorId } }],
          expected: 'no_stream',
        });
      }
    }
    // A concurrent claim of the same slug fails here on the reservation's expected revision (409).
    await this.store.appendAtomically(appends);
    return { created: !state.exists };
  }
}
