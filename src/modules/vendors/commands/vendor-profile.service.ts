import { Injectable } from '@nestjs/common';
import { EventStore, StreamAppend } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { vendorDecider, VendorEvent, vendorStreamId, VendorState } from '../domain/vendor.decider';
import { VendorProfileFields } from '../domain/vendor-profile';

/** Slug uniqueness: a reservation stream per slug, appended in the same transaction as the profile. */
const slugStreamId = (slug: string) => `vendor-slug-${slug}`;

@Injectable()
export class VendorProfileService {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** Creates or updates the caller's profile; returns whether it was created. */
  async save(vendorId: string, fields: VendorProfileFields): Promise<{ created: boolean }> {
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
      if (holder?.type === 'VendorSlugReserved' && holder.data.vendorId !== vendorId) {
        throw new DomainError('conflict', `The vendor slug "${fields.slug}" is taken`);
      }
      appends.push({
        streamId: slugStreamId(fields.slug),
        events: [{ type: 'VendorSlugReserved', data: { vendorId } }],
        expected: wanted.length === 0 ? 'no_stream' : wanted.length - 1,
      });
      if (state.exists) {
        appends.push({
          streamId: slugStreamId(state.slug),
          events: [{ type: 'VendorSlugReleased', data: { vendorId } }],
          expected: 'exists',
        });
      }
    }
    // A concurrent claim of the same slug fails here on the reservation's expected revision (409).
    await this.store.appendAtomically(appends);
    return { created: !state.exists };
  }
}
