import { Injectable } from '@nestjs/common';
import { EventStore, StreamAppend } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { SaveProfileCommand, vendorDecider, VendorEvent, vendorStreamId, VendorState } from '../domain/vendor.decider';

/**
 * Slug uniqueness: a reservation stream per slug, appended in the same
 * transaction as the profile. A slug is never released, even when its vendor
 * moves to another: links to `/v1/listings/<old-slug>/...` must never start
 * serving another vendor's packages.
 */
const slugStreamId = (slug: string) => `vendor-slug-${slug}`;

@Injectable()
export class VendorProfileService {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** Creates or updates the caller's profile; returns whether it was created. */
  async save(vendorId: string, fields: Omit<SaveProfileCommand, 'type' | 'vendorId' | 'now'>): Promise<{ created: boolean }> {
    const streamId = vendorStreamId(vendorId);
    const { state, revision } = await foldStream<VendorState, VendorEvent>(
      this.store,
      streamId,
      vendorDecider.evolve,
      vendorDecider.initialState,
    );
    const events = vendorDecider.decide({ type: 'SaveProfile', vendorId, now: this.clock.now(), ...fields }, state);
    const appends: StreamAppend[] = [{ streamId, events, expected: revision < 0 ? 'no_stream' : revision }];
    if (!state.exists || state.slug !== fields.slug) {
      const wanted = await this.store.readStream(slugStreamId(fields.slug));
      const holder = wanted[wanted.length - 1];
      if (holder && holder.data.vendorId !== vendorId)
        throw new DomainError('conflict', `The vendor slug "${fields.slug}" is taken`);
      // Returning to a slug the vendor held before needs no new reservation.
      if (!holder) {
        appends.push({
          streamId: slugStreamId(fields.slug),
          events: [{ type: 'VendorSlugReserved', data: { vendorId } }],
          expected: 'no_stream',
        });
      }
    }
    // A concurrent claim of the same slug fails here on the reservation's expected revision (409).
    await this.store.appendAtomically(appends);
    return { created: !state.exists };
  }
}
