/**
 * A place in the global log. Ordered by `commit`, then `prepare`.
 *
 * PostgreSQL: `commit` is the writing transaction's xid8 and `prepare` the
 * event's sequence number, because sequence values commit out of order and
 * only (transaction, sequence) below the oldest running transaction is stable.
 * EventStoreDB: its own commit/prepare positions.
 */
export class LogPosition {
  static readonly START = new LogPosition(0n, 0n);

  constructor(
    readonly commit: bigint,
    readonly prepare: bigint,
  ) {}

  static parse(text: string): LogPosition {
    const match = /^(\d+)\/(\d+)$/.exec(text);
    if (!match) throw new Error(`not a log position: "${text}"`);
    return new LogPosition(BigInt(match[1]), BigInt(match[2]));
  }

  compare(other: LogPosition): number {
    if (this.commit !== other.commit) return this.commit < other.commit ? -1 : 1;
    if (this.prepare !== other.prepare) return this.prepare < other.prepare ? -1 : 1;
    return 0;
  }

  isAfter(other: LogPosition): boolean {
    return this.compare(other) > 0;
  }

  toString(): string {
    return `${this.commit}/${this.prepare}`;
  }

  toJSON(): string {
    return this.toString();
  }
}
