import { Pool } from 'pg';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';

/** search_prefix_query spells each word's prefix out as the lexemes search_lexemes holds. */
describe('search_prefix_query', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = openPool(database.url, 2);
    // As the stemmer writes them: 'pdf-tools' is held as 'pdf-tool'.
    const many = Array.from({ length: 40 }, (_, i) => `wide${i}`);
    await pool.query('INSERT INTO search_lexemes (lexeme) SELECT unnest($1::text[])', [
      ['pdf', 'pdf-tool', 'pdfs', 'review', 'reviewer', 'csv', 'back\\slash', "abc'd", ...many],
    ]);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const expand = async (words: string) =>
    (await pool.query('SELECT search_prefix_query($1)::text AS query', [words])).rows[0].query as string;
  const matches = async (document: string, words: string) =>
    (await pool.query(`SELECT to_tsvector('english', $1) @@ search_prefix_query($2) AS hit`, [document, words])).rows[0]
      .hit as boolean;

  it('spells a prefix out as the lexemes it begins, through and, or, not and phrases', async () => {
    expect(await expand('pdf')).toBe("'pdf' | 'pdf-tool' | 'pdfs'");
    expect(await expand('"review checklist" or csv -data')).toBe(
      "( 'review' | 'reviewer' ) <-> 'checklist':* | 'csv' & !'data':*",
    );
    expect(await expand('reviews')).toBe("'review' | 'reviewer'");
  });

  it('quotes lexemes as tsquery text wants and keeps :* when there are none or too many', async () => {
    expect(await expand('back')).toBe("'back\\\\slash'");
    expect(await expand('abc')).toBe("'abc''d'");
    expect(await expand('wide')).toBe("'wide':*");
    expect(await expand('nothing')).toBe("'noth':*");
    expect(await expand('the')).toBe('');
  });

  it('matches what the :* prefix matched', async () => {
    expect(await matches('pdf-tools for documents', 'pdf-to')).toBe(true);
    expect(await matches('Code review rules', 'review')).toBe(true);
    expect(await matches('Code review rules', 'csv')).toBe(false);
  });
});
