/** A half-open span of time, `[from, to)`. */
export interface Period {
  from: Date;
  to: Date;
}

const DAY_MS = 86_400_000;

/** The UTC calendar month holding `now`: from the 1st at 00:00 UTC to the next month's 1st. */
export function utcMonthOf(now: Date): Period {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
}

/** The ISO week holding `now`, in UTC: from Monday 00:00 UTC to the next Monday. */
export function utcWeekOf(now: Date): Period {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  // getUTCDay: Sunday 0 ... Saturday 6; days since Monday: Monday 0 ... Sunday 6.
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  const from = midnight - sinceMonday * DAY_MS;
  return { from: new Date(from), to: new Date(from + 7 * DAY_MS) };
}
