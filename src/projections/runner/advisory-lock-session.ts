import { Client, ClientConfig } from 'pg';

/**
 * One PostgreSQL session holding the session-level advisory locks of every
 * processor runner in a process, so running N processors costs one connection,
 * not N. It is opened on first use and reopened after it is lost; losing it
 * releases every lock it held, which `assertHeld` then reports to each holder.
 */
export class AdvisoryLockSession {
  private session: Promise<Client> | undefined;
  private readonly held = new Set<string>();
  /** Statements go one at a time: pg no longer wants a client to queue them. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly config: ClientConfig) {}

  /** True if this session now holds `key`; false if another session does. */
  async tryLock(key: string): Promise<boolean> {
    // Session locks stack: taking one twice would need two unlocks.
    if (this.held.has(key)) return false;
    const { rows } = await this.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
    if (rows[0].locked) this.held.add(key);
    return rows[0].locked;
  }

  /** Throws unless the session is alive and still holds `key`. */
  async assertHeld(key: string): Promise<void> {
    if (!this.held.has(key)) throw new Error(`the advisory lock ${key} was lost with its session`);
    await this.query('SELECT 1');
    if (!this.held.has(key)) throw new Error(`the advisory lock ${key} was lost with its session`);
  }

  async unlock(key: string): Promise<void> {
    if (!this.held.delete(key)) return;
    await this.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
  }

  /** Ends the session, releasing whatever it still holds; a later call opens a new one. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.held.clear();
    const client = await session?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  private query<R extends object>(text: string, values?: unknown[]) {
    const run = this.tail.then(async () => {
      const session = (this.session ??= this.open());
      try {
        return await (await session).query<R>(text, values);
      } catch (error) {
        // A failed statement here means a broken session: drop it, and with it every lock.
        this.drop(session);
        throw error;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private open(): Promise<Client> {
    const client = new Client(this.config);
    const opening = client.connect().then(() => client);
    client.on('error', () => this.drop(opening));
    return opening;
  }

  private drop(session: Promise<Client>): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.held.clear();
    void session.then((client) => client.end()).catch(() => undefined);
  }
}
