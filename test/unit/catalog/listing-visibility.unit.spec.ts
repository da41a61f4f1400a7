import { ListingAccessFacts, mayView } from '../../../src/modules/catalog/domain/listing-visibility';

describe('mayView: who sees a listing', () => {
  const vendorId = 'vendor';
  const orgId = 'org';
  const members = new Set(['member', 'admin']);
  const isMember = jest.fn(async (org: string, userId: string) => org === orgId && members.has(userId));
  const listing = (changes: Partial<ListingAccessFacts> = {}): ListingAccessFacts => ({
    vendorId,
    status: 'published',
    visibility: 'public',
    orgId,
    ...changes,
  });
  beforeEach(() => isMember.mockClear());

  it('shows a public listing to everyone, anonymous included, without asking about membership', async () => {
    for (const viewer of [null, 'stranger', 'member', vendorId]) expect(await mayView(listing(), viewer, isMember)).toBe(true);
    expect(await mayView(listing({ status: 'unlisted' }), null, isMember)).toBe(true);
    expect(isMember).not.toHaveBeenCalled();
  });

  it.each(['private', 'org_only'])('shows a %s listing to its vendor and the org’s members only', async (visibility) => {
    const hidden = listing({ visibility });
    expect(await mayView(hidden, vendorId, isMember)).toBe(true);
    expect(await mayView(hidden, 'member', isMember)).toBe(true);
    expect(await mayView(hidden, 'admin', isMember)).toBe(true);
    expect(await mayView(hidden, 'stranger', isMember)).toBe(false);
    expect(await mayView(hidden, null, isMember)).toBe(false);
  });

  it('hides a private listing of a vendor in no org from everyone but the vendor', async () => {
    const noOrg = listing({ visibility: 'private', orgId: null });
    expect(await mayView(noOrg, 'member', isMember)).toBe(false);
    expect(await mayView(noOrg, vendorId, isMember)).toBe(true);
    expect(isMember).not.toHaveBeenCalled();
  });

  it('keeps a draft its vendor’s alone, from the org’s members too', async () => {
    for (const visibility of ['public', 'private']) {
      const draft = listing({ status: 'draft', visibility });
      expect(await mayView(draft, vendorId, isMember)).toBe(true);
      for (const viewer of [null, 'stranger', 'member']) expect(await mayView(draft, viewer, isMember)).toBe(false);
    }
  });
});
