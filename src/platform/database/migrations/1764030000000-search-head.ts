import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cold search: relevance ranks a small weighted document (title, slug, tags,
 * vendor name, description) instead of the whole search document with its
 * README, and the heap stays narrow so a page of text matches touches few pages.
 *
 * `search_vector` (with the README) still decides which listings match, through
 * its GIN index; `search_head` only orders them. The large columns (README and
 * search document) move out of line: matching reads the index, not them.
 */
export class SearchHead1764030000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    // array_to_string is only STABLE in general; over text[] it is immutable, which a generated column needs.
    await db.query(`
      CREATE FUNCTION listing_search_head(title text, slug text, tags text[], vendor_name text, description text)
      RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN
           setweight(to_tsvector('english', title), 'A')
        || setweight(to_tsvector('english', slug), 'A')
        || setweight(to_tsvector('english', array_to_string(tags, ' ')), 'A')
        || setweight(to_tsvector('english', vendor_name), 'B')
        || setweight(to_tsvector('english', description), 'B')`);
    // Rows above 256 bytes move their largest values (README, search document) to TOAST; the head stays inline (MAIN).
    await db.query('ALTER TABLE listings SET (toast_tuple_target = 256)');
    // Adding a stored column rewrites the table (after the storage is set), so existing rows are re-toasted too.
    await db.query(`
      ALTER TABLE listings
        ADD COLUMN search_head tsvector GENERATED ALWAYS AS (listing_search_head(title, slug, tags, vendor_name, description)) STORED,
        ALTER COLUMN search_head SET STORAGE MAIN`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE listings DROP COLUMN search_head');
    await db.query('ALTER TABLE listings RESET (toast_tuple_target)');
    await db.query('DROP FUNCTION listing_search_head');
  }
}
