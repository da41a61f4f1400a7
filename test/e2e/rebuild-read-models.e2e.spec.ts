import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { runProjectionsCli } from '../../src/projections/cli/projections-cli';
import { allProcessorsSettled, driveMoneyAndNetworkFlows, FlowsWorld, startFlowsWorld } from '../support/money-and-network-flows';

/**
 * The tables of the schema that are not read models, and why. Every other table is a read model and is
 * compared, so a new read model is covered without anyone listing it; a new table that is not one must be
 * named here, or the comparison fails naming it.
 */
const NOT_READ_MODELS: Record<string, string> = {
  events: 'the log itself',
  streams: "the log's stream heads",
  money_stream_chain: "the log's hash chain, kept by a trigger on events",
  schema_migrations: 'the migrations run',
  processor_checkpoints: "the processors' own bookkeeping",
  processor_dead_letters: "the processors' own bookkeeping",
  stream_snapshots: 'a cache of folded streams beside the log, never a view',
  personal_data_keys: 'the keys personal data in the log is sealed with: the input of a replay, not its output',
  idempotency_in_flight: 'claims held while a request executes',
  web_sessions: 'web sign-in state, kept outside the log by design',
  web_sign_ins: 'web sign-in state, kept outside the log by design',
  sandbox_customers: "the sandbox payment gateway's own records (the processor's side)",
  sandbox_payment_intents: "the sandbox payment gateway's own records (the processor's side)",
  sandbox_payment_methods: "the sandbox payment gateway's own records (the processor's side)",
  sandbox_setup_intents: "the sandbox payment gateway's own records (the processor's side)",
  sandbox_connected_accounts: "the sandbox payment gateway's own records (the processor's side)",
};

/**
 * Bookkeeping columns left out of the comparison: values that are not facts of the history but of when and in
 * which order a projection wrote them. Search cursors number every change of a listing's ordering values from a
 * sequence that keeps counting across a rebuild on purpose (so a cursor from before a rebuild never matches
 * rows after it): `created_seq`, `search_seq` and the history's `valid_until_seq`, and the history's wall-clock
 * `recorded_at` (for pruning). Serial and identity columns number rows as they are inserted: the ids of the audit
 * logs, and the tie-break of policies created at the same instant (a rebuild inserts in log order, so that order
 * holds; the numbers do not).
 */
const BOOKKEEPING_COLUMNS: Record<string, string[]> = {
  listings: ['created_seq', 'search_seq'],
  listing_search_history: ['valid_until_seq', 'recorded_at'],
  auth_audit: ['id'],
  vendor_signing_key_log: ['id'],
  spend_policies: ['seq'],
};

describe('npm run projections -- rebuild, after the money and network flows', () => {
  let world: FlowsWorld;

  beforeAll(async () => {
    world = await startFlowsWorld();
    await driveMoneyAndNetworkFlows(world);
  }, 600_000);
  afterAll(() => world?.close());

  const db = () => world.app.server.app.get(DataSource);

  /** Every base table of the schema the migrations create, less those that are not read models. */
  async function readModelTables(): Promise<string[]> {
    const rows: Array<{ name: string }> = await db().query(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    return rows.map((r) => r.name).filter((name) => !(name in NOT_READ_MODELS));
  }

  /** Each table's rows as JSON text without their bookkeeping columns, sorted: one consistent read of all of them. */
  async function snapshot(tables: string[]): Promise<Map<string, string[]>> {
    return db().transaction('REPEATABLE READ', async (tx) => {
      const rows = new Map<string, string[]>();
      for (const table of tables) {
        const found: Array<{ row: string }> = await tx.query(
          `SELECT (to_jsonb(t) - $1::text[])::text AS row FROM "${table.replace(/"/g, '""')}" t ORDER BY 1`,
          [BOOKKEEPING_COLUMNS[table] ?? []],
        );
        rows.set(
          table,
          found.map((r) => r.row),
        );
      }
      return rows;
    });
  }

  it('names every table that is not a read model, and each exists', async () => {
    const tables: Array<{ name: string }> = await db().query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
    );
    const names = new Set(tables.map((t) => t.name));
    expect(Object.keys(NOT_READ_MODELS).filter((name) => !names.has(name))).toEqual([]);
  });

  it('leaves every read model equal to before, table by table', async () => {
    const tables = await readModelTables();
    const head = await allProcessorsSettled(world.app);
    const before = await snapshot(tables);
    // The flows reached every read model: an empty table would compare equal whatever its projection did.
    expect(tables.filter((table) => before.get(table)!.length === 0)).toEqual([]);

    const printed: string[] = [];
    const code = await runProjectionsCli(
      ['rebuild'],
      loadConfig({ DATABASE_URL: world.app.db.url, LOG_LEVEL: 'silent' }),
      (line) => printed.push(line),
    );
    expect({ code, printed: printed.filter((line) => !/rebuilt and caught up/.test(line)) }).toEqual({ code: 0, printed: [] });
    // Nothing was appended meanwhile: the two snapshots are of the same history.
    expect((await allProcessorsSettled(world.app)).toString()).toBe(head.toString());

    const after = await snapshot(tables);
    const differences: Record<string, { lost: string[]; gained: string[] }> = {};
    for (const table of tables) {
      const [was, is] = [before.get(table)!, after.get(table)!];
      const lost = was.filter((row) => !is.includes(row));
      const gained = is.filter((row) => !was.includes(row));
      if (lost.length || gained.length || was.length !== is.length) differences[table] = { lost, gained };
    }
    expect(differences).toEqual({});
  });
});
