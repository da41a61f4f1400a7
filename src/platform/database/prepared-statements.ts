import { createHash } from 'node:crypto';
import { Pool } from 'pg';

/**
 * Runs hot read statements as named prepared statements, so each connection
 * parses and plans them once (PostgreSQL switches to a generic plan after five
 * executions when that plan is no worse) instead of on every request.
 *
 * Every connection keeps each named statement until it closes, so only the
 * first `limit` distinct texts get a name; any other text runs unnamed, as
 * before. Use it only for statements whose plan does not depend on the values.
 * One instance per process (DatabaseModule provides it), so the limit holds.
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly pool: Pool,
    private readonly prefix: string,
    private readonly limit = 64,
  ) {}

  async query<Row extends object = Record<string, unknown>>(text: string, values: unknown[]): Promise<Row[]> {
    const name = this.nameOf(text);
    const result = await this.pool.query<Row>(name ? { name, text, values } : { text, values });
    return result.rows;
  }

  private nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (!name && this.names.size < this.limit) {
      name = `${this.prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
      this.names.set(text, name);
    }
    return name;
  }
}
