import { MigrationInterface, QueryRunner } from 'typeorm';

/** The small listing columns that filters and result pages read, each with its type's empty value. */
const SMALL_COLUMNS: Record<string, string> = {
  title: "''",
  slug: "''",
  description: "''",
  vendor_name: "''",
  tags: "'{}'::text[]",
  targets: "'{}'::text[]",
  tools: "'{}'::text[]",
  settlement_methods: "'{}'::text[]",
};
const columns = Object.keys(SMALL_COLUMNS);

/**
 * With `toast_tuple_target = 256` (see SearchHead) the toaster moved not only
 * the README and the search document out of line but, rows still being over
 * 256 bytes, the tags, description and title as well: every row a filter on
 * tags looked at cost four more buffer reads (a TOAST index lookup and its
 * page), which made a tag browse sorted by popularity 5 times slower than it
 * should be. MAIN keeps these columns in the row unless the row would not fit a
 * page; the README and the search document still go out of line first.
 *
 * The rewrite holds the table's lock until it commits (about 11 s for 100,000
 * listings on 2 busy cores): instances migrate at boot, before they serve.
 */
export class ListingColumnsInline1764070000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE listings ${columns.map((c) => `ALTER COLUMN ${c} SET STORAGE MAIN`).join(', ')}`);
    // Storage applies to values written from now on; writing each value anew (not the same TOAST pointer) re-toasts
    // existing rows. With the triggers off (inside this transaction only), the rewrite changes nothing else: no
    // derived ordering value is recomputed, no search sequence moves, no history row or lexeme is written.
    await db.query('ALTER TABLE listings DISABLE TRIGGER USER');
    await db.query(`UPDATE listings SET ${columns.map((c) => `${c} = ${c} || ${SMALL_COLUMNS[c]}`).join(', ')}`);
    await db.query('ALTER TABLE listings ENABLE TRIGGER USER');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE listings ${columns.map((c) => `ALTER COLUMN ${c} SET STORAGE EXTENDED`).join(', ')}`);
  }
}
