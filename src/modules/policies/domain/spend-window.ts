/**
 * What a policy has spent in the current UTC day and UTC month: two running
 * totals with the day and month they belong to, so the state stays the same
 * size however many purchases the policy has seen. A total whose key is not
 * the current day's (or month's) is a past one and counts as zero.
 */
export interface PolicySpend {
  /** `YYYY-MM-DD` (UTC) of `dayCents`; empty before the first purchase. */
  day: string;
  dayCents: number;
  /** `YYYY-MM` (UTC) of `monthCents`; empty before the first purchase. */
  month: string;
  monthCents: number;
}

export const NO_SPEND: PolicySpend = { day: '', dayCents: 0, month: '', monthCents: 0 };

export const utcDayKey = (at: Date): string => at.toISOString().slice(0, 10);
export const utcMonthKey = (at: Date): string => at.toISOString().slice(0, 7);

export const spentOnDayOf = (spend: PolicySpend, now: Date): number => (spend.day === utcDayKey(now) ? spend.dayCents : 0);
export const spentInMonthOf = (spend: PolicySpend, now: Date): number =>
  spend.month === utcMonthKey(now) ? spend.monthCents : 0;

/**
 * Adds a recorded purchase. A purchase of a later day (month) starts a new
 * total; one stamped in an earlier day than the total's (a writer whose clock
 * lags) belongs to a past day and leaves today's total alone. Keys compare as
 * text because ISO dates sort so.
 */
export function addSpend(spend: PolicySpend, amountCents: number, at: Date): PolicySpend {
  const day = utcDayKey(at);
  const month = utcMonthKey(at);
  return {
    day: day > spend.day ? day : spend.day,
    dayCents: day === spend.day ? spend.dayCents + amountCents : day > spend.day ? amountCents : spend.dayCents,
    month: month > spend.month ? month : spend.month,
    monthCents: month === spend.month ? spend.monthCents + amountCents : month > spend.month ? amountCents : spend.monthCents,
  };
}

/**
 * Takes back a recorded purchase from the totals it was counted in: the day's
 * total only while it is still the purchase's day, the month's likewise. A
 * purchase counts in a total exactly when the total's key equals its own at
 * the give-back, since keys only move forward (see `addSpend`); a purchase of
 * yesterday given back today leaves today's total alone.
 */
export function removeSpend(spend: PolicySpend, amountCents: number, recordedAt: Date): PolicySpend {
  return {
    ...spend,
    dayCents: utcDayKey(recordedAt) === spend.day ? spend.dayCents - amountCents : spend.dayCents,
    monthCents: utcMonthKey(recordedAt) === spend.month ? spend.monthCents - amountCents : spend.monthCents,
  };
}
