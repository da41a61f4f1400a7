import { IsIn } from 'class-validator';
import { LISTING_VISIBILITIES, ListingVisibility } from '../../domain/listing.decider';

export class ChangeVisibilityDto {
  @IsIn(LISTING_VISIBILITIES, { message: `visibility must be one of ${LISTING_VISIBILITIES.join(', ')}` })
  visibility: ListingVisibility;
}
