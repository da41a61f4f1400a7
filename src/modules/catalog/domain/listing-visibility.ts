/** What the visibility rule looks at: the listing's row and the org its vendor profile belongs to. */
export interface ListingAccessFacts {
  vendorId: string;
  status: string;
  /** `public`, `private` or `org_only`. */
  visibility: string;
  orgId: string | null;
}

/**
 * Who may see a listing; the one definition, which `ListingsReader` applies to every read of a listing made for
 * someone. The vendor sees its own. A draft is its vendor's alone (an unlisted listing is reachable by address). A
 * `private` or `org_only` listing is seen by the members of its vendor profile's org, whatever their role: the spec
 * does not tell the two apart, so both mean that. Anyone else, signed in or not, is answered as if it did not exist.
 */
export async function mayView(
  listing: ListingAccessFacts,
  viewerId: string | null,
  isMember: (orgId: string, userId: string) => Promise<boolean>,
): Promise<boolean> {
  if (viewerId !== null && listing.vendorId === viewerId) return true;
  if (listing.status === 'draft') return false;
  if (listing.visibility === 'public') return true;
  if (viewerId === null || listing.orgId === null) return false;
  return isMember(listing.orgId, viewerId);
}
