import { LogPosition } from '../../src/event-store/log-position';

describe('LogPosition', () => {
  it('orders by commit, then prepare', () => {
    const a = new LogPosition(10n, 500n);
    const b = new LogPosition(11n, 2n);
    const c = new LogPosition(11n, 3n);
    expect(b.isAfter(a)).toBe(true);
    expect(c.isAfter(b)).toBe(true);
    expect(a.compare(new LogPosition(10n, 500n))).toBe(0);
    expect(a.isAfter(a)).toBe(false);
  });

  it('round-trips through text beyond the safe integer range', () => {
    const big = new LogPosition(2n ** 63n - 1n, 9_007_199_254_740_993n);
    expect(LogPosition.parse(big.toString())).toEqual(big);
    expect(JSON.stringify({ at: big })).toBe(`{"at":"${big}"}`);
    expect(() => LogPosition.parse('12')).toThrow();
  });
});
