import { utcMonthOf, utcWeekOf } from '../../../src/modules/purchasing/domain/periods';

const span = ({ from, to }: { from: Date; to: Date }) => [from.toISOString(), to.toISOString()];

describe('reporting periods (UTC)', () => {
  it('a month runs from the 1st at midnight UTC to the next 1st, across a year end', () => {
    expect(span(utcMonthOf(new Date('2026-03-31T23:59:59.999Z')))).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
    ]);
    expect(span(utcMonthOf(new Date('2026-12-15T08:00:00Z')))).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });

  it.each([
    ['a Monday at midnight', '2026-03-16T00:00:00.000Z'],
    ['a Wednesday', '2026-03-18T12:34:56.000Z'],
    ['a Sunday just before midnight', '2026-03-22T23:59:59.999Z'],
  ])('a week starts on Monday 00:00 UTC: %s', (_, at) => {
    expect(span(utcWeekOf(new Date(at)))).toEqual(['2026-03-16T00:00:00.000Z', '2026-03-23T00:00:00.000Z']);
  });

  it('a week may start in the previous month', () => {
    // 2026-04-01 is a Wednesday.
    expect(span(utcWeekOf(new Date('2026-04-01T10:00:00Z')))).toEqual(['2026-03-30T00:00:00.000Z', '2026-04-06T00:00:00.000Z']);
  });

  it('is UTC whatever the offset the instant was written with', () => {
    // Monday 01:00 in UTC+02:00 is Sunday 23:00 UTC: still the week before.
    expect(span(utcWeekOf(new Date('2026-03-23T01:00:00+02:00')))).toEqual([
      '2026-03-16T00:00:00.000Z',
      '2026-03-23T00:00:00.000Z',
    ]);
  });
});
