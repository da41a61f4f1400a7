import { Command } from '@nestjs/cqrs';
import { SaveProfileCommand } from '../../domain/vendor.decider';

/** `bio` and `website` left undefined keep their current values; null clears them. */
export type VendorProfileChanges = Omit<SaveProfileCommand, 'type' | 'vendorId' | 'now'>;

export interface SavedVendorProfile {
  /** True when this save created the profile (201), false for an update (200). */
  created: boolean;
}

/** Creates or updates the caller's vendor profile, reserving a new slug. */
export class SaveVendorProfileCommand extends Command<SavedVendorProfile> {
  constructor(
    readonly vendorId: string,
    readonly changes: VendorProfileChanges,
  ) {
    super();
  }
}
