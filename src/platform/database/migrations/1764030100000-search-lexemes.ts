import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every lexeme the search documents hold, so a query word's prefix can be
 * expanded to the exact lexemes it stands for. GIN answers exact entries
 * through its fast AND scan (skipping along the rarest posting list, together
 * with the type and target entries); a `:*` prefix entry is first gathered
 * whole into a bitmap, which costs several times more.
 *
 * Lexemes are only ever added: one no document holds any more matches nothing.
 */
export class SearchLexemes1764030100000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    // C collation: a prefix is a byte range of the primary key.
    await db.query('CREATE TABLE search_lexemes (lexeme text COLLATE "C" PRIMARY KEY)');
    // Statement triggers see the whole batch at once, so a bulk insert adds each lexeme once;
    // updates (installs, ratings) add only when the search document changed.
    await db.query(`
      CREATE FUNCTION search_lexemes_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO search_lexemes (lexeme)
          SELECT DISTINCT unnest(tsvector_to_array(n.search_vector)) FROM added n
          ON CONFLICT DO NOTHING;
        ELSE
          INSERT INTO search_lexemes (lexeme)
          SELECT DISTINCT unnest(tsvector_to_array(n.search_vector))
          FROM added n JOIN replaced o ON o.id = n.id WHERE n.search_vector IS DISTINCT FROM o.search_vector
          ON CONFLICT DO NOTHING;
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER search_lexemes_on_insert AFTER INSERT ON listings
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION search_lexemes_add()`);
    await db.query(`
      CREATE TRIGGER search_lexemes_on_update AFTER UPDATE ON listings
      REFERENCING OLD TABLE AS replaced NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION search_lexemes_add()`);
    await db.query(
      'INSERT INTO search_lexemes (lexeme) SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM listings ON CONFLICT DO NOTHING',
    );

    /**
     * The user's websearch-syntax query with every word matching as a prefix: each lexeme of the parsed
     * query becomes the OR of the lexemes it begins (up to 32; past that, and for none, a `:*` prefix).
     * Lexemes are quoted as tsquery text wants (a quote doubled, a backslash escaped), not as SQL does.
     */
    await db.query(`
      CREATE FUNCTION search_prefix_query(words text) RETURNS tsquery LANGUAGE plpgsql STABLE AS $$
      DECLARE
        parsed text := websearch_to_tsquery('english', words)::text;
        between_lexemes text[] := regexp_split_to_array(parsed, '''[^'']+''');
        word text;
        expansions text[];
        result text := between_lexemes[1];
        i int := 1;
      BEGIN
        FOR word IN SELECT (regexp_matches(parsed, '''([^'']+)''', 'g'))[1] LOOP
          i := i + 1;
          SELECT array_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''') INTO expansions FROM (
            SELECT lexeme FROM search_lexemes
            WHERE lexeme >= word COLLATE "C" AND lexeme < (word || chr(1114111)) COLLATE "C"
            ORDER BY lexeme LIMIT 33) found;
          result := result || CASE
            WHEN expansions IS NULL OR cardinality(expansions) > 32 THEN '''' || word || ''':*'
            ELSE '(' || array_to_string(expansions, ' | ') || ')'
          END || between_lexemes[i];
        END LOOP;
        RETURN result::tsquery;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION search_prefix_query');
    await db.query('DROP TRIGGER search_lexemes_on_update ON listings');
    await db.query('DROP TRIGGER search_lexemes_on_insert ON listings');
    await db.query('DROP FUNCTION search_lexemes_add');
    await db.query('DROP TABLE search_lexemes');
  }
}
