import { sortMatchesFirst } from '../../../src/modules/catalog/queries/search-listings/search-listings.handler';

/** When a sorted search page sorts its matches rather than walking the order's index (100,000 listings). */
describe('sortMatchesFirst', () => {
  const catalogue = 100_000;

  it('sorts the matches of a rare tag on a deep page, and walks for its first page', () => {
    // 1,842 listings carry the tag: page 12 reaches 241 rows, which the walk finds among some 13,000.
    expect(sortMatchesFirst(1_842, 241, catalogue, false)).toBe(true);
    expect(sortMatchesFirst(1_842, 21, catalogue, false)).toBe(false);
  });

  it('sorts the matches of rare words, whose test on the walk reads the search document', () => {
    expect(sortMatchesFirst(2_561, 21, catalogue, true)).toBe(true);
    expect(sortMatchesFirst(2_561, 21, catalogue, false)).toBe(false);
  });

  it('walks for a common word or filter, and past the bound on the matches it sorts', () => {
    expect(sortMatchesFirst(11_740, 21, catalogue, true)).toBe(false);
    expect(sortMatchesFirst(28_133, 381, catalogue, false)).toBe(false);
    expect(sortMatchesFirst(6_000, 10_000, catalogue, true)).toBe(false);
  });

  it('walks for a page that reaches past the bound, where an empty sorted page could hide matches the planner missed', () => {
    expect(sortMatchesFirst(100, 5_001, catalogue, false)).toBe(false);
    expect(sortMatchesFirst(100, 5_000, catalogue, false)).toBe(true);
  });
});
