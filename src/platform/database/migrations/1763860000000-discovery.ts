import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Discovery: full-text search, ratings and reviews, installs, trust, and the
 * history that lets search cursors read ordering values as of their start.
 *
 * A trigger derives what follows from a listing's own columns (searchability,
 * average and Bayesian rating, trust score, search document), so projections
 * and rebuilds cannot disagree about them. Whenever an ordering value changes,
 * the old values go to `listing_search_history` under a new sequence number: a cursor walk that started at sequence S reads each listing as it
 * was at S, so concurrent installs and new listings never duplicate or skip a
 * result.
 */
export class Discovery1763860000000 implements MigrationInterface {
  name = 'Discovery1763860000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE catalog_state (
        id           integer PRIMARY KEY CHECK (id = 1),
        rating_sum   bigint  NOT NULL DEFAULT 0,
        rating_count bigint  NOT NULL DEFAULT 0
      )`);
    await db.query('INSERT INTO catalog_state (id) VALUES (1)');
    // Only the catalog projection writes listings, one transaction at a time, so the committed sequence
    // numbers always form a prefix and max(search_seq) is a consistent snapshot point for a reader.
    await db.query('CREATE SEQUENCE catalog_search_seq');
    await db.query(`
      ALTER TABLE listings
        ADD COLUMN vendor_name          text             NOT NULL DEFAULT '',
        ADD COLUMN vendor_verified      boolean          NOT NULL DEFAULT false,
        ADD COLUMN searchable           boolean          NOT NULL DEFAULT false,
        ADD COLUMN first_published_at   timestamptz,
        ADD COLUMN latest_signed        boolean          NOT NULL DEFAULT false,
        ADD COLUMN latest_scan_status   text,
        ADD COLUMN rating_sum           bigint           NOT NULL DEFAULT 0,
        ADD COLUMN rating_bayes         double precision NOT NULL DEFAULT 0,
        ADD COLUMN service_success_rate double precision,
        ADD COLUMN trust_score          double precision NOT NULL DEFAULT 0,
        ADD COLUMN search_vector        tsvector         NOT NULL DEFAULT ''::tsvector,
        ADD COLUMN created_seq          bigint           NOT NULL DEFAULT 0,
        ADD COLUMN search_seq           bigint           NOT NULL DEFAULT 0`);
    await db.query(`
      CREATE TABLE listing_search_history (
        listing_id         uuid             NOT NULL,
        valid_until_seq    bigint           NOT NULL,
        searchable         boolean          NOT NULL,
        install_count      bigint           NOT NULL,
        rating_bayes       double precision NOT NULL,
        price_cents        bigint           NOT NULL,
        trust_score        double precision NOT NULL,
        first_published_at timestamptz,
        recorded_at        timestamptz      NOT NULL DEFAULT now(),
        PRIMARY KEY (listing_id, valid_until_seq)
      )`);
    await db.query('CREATE INDEX listing_search_history_age ON listing_search_history (recorded_at)');

    await db.query(`
      CREATE FUNCTION listings_derive() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        global_mean double precision;
        score double precision;
        next_seq bigint;
      BEGIN
        NEW.searchable := NEW.status = 'published' AND NEW.latest_release_id IS NOT NULL;
        NEW.rating := CASE WHEN NEW.rating_count > 0 THEN round(NEW.rating_sum::numeric / NEW.rating_count, 2) ELSE 0 END;
        -- Few reviews pull toward the catalog-wide mean, as if every listing had 5 average reviews more.
        SELECT CASE WHEN rating_count > 0 THEN rating_sum::double precision / rating_count ELSE 3.5 END
          INTO global_mean FROM catalog_state WHERE id = 1;
        NEW.rating_bayes := (5 * global_mean + NEW.rating_sum) / (5 + NEW.rating_count);
        score := 25 * NEW.vendor_verified::int
               + 15 * NEW.latest_signed::int
               + CASE NEW.latest_scan_status WHEN 'passed' THEN 15 WHEN 'flagged' THEN 5 ELSE 0 END
               + 25 * greatest(0, NEW.rating_bayes - 1) / 4
               + 20 * least(1, ln(1 + NEW.install_count) / ln(10001));
        IF NEW.service_success_rate IS NOT NULL THEN
          score := 0.9 * score + 10 * NEW.service_success_rate;
        END IF;
        NEW.trust_score := round(score::numeric, 4);
        IF TG_OP = 'INSERT' OR (NEW.title, NEW.slug, NEW.description, NEW.tags, NEW.readme_md, NEW.vendor_name)
             IS DISTINCT FROM (OLD.title, OLD.slug, OLD.description, OLD.tags, OLD.readme_md, OLD.vendor_name) THEN
          NEW.search_vector :=
               setweight(to_tsvector('english', NEW.title), 'A')
            || setweight(to_tsvector('english', NEW.slug), 'A')
            || setweight(to_tsvector('english', array_to_string(NEW.tags, ' ')), 'A')
            || setweight(to_tsvector('english', NEW.vendor_name), 'B')
            || setweight(to_tsvector('english', NEW.description), 'B')
            || setweight(to_tsvector('english', left(coalesce(NEW.readme_md, ''), 100000)), 'D');
        END IF;
        IF TG_OP = 'INSERT' THEN
          next_seq := nextval('catalog_search_seq');
          NEW.created_seq := next_seq;
          NEW.search_seq := next_seq;
        ELSIF (NEW.searchable, NEW.install_count, NEW.rating_bayes, NEW.price_cents, NEW.trust_score, NEW.first_published_at)
              IS DISTINCT FROM (OLD.searchable, OLD.install_count, OLD.rating_bayes, OLD.price_cents, OLD.trust_score, OLD.first_published_at) THEN
          next_seq := nextval('catalog_search_seq');
          NEW.search_seq := next_seq;
          INSERT INTO listing_search_history
            (listing_id, valid_until_seq, searchable, install_count, rating_bayes, price_cents, trust_score, first_published_at)
          VALUES (OLD.id, next_seq, OLD.searchable, OLD.install_count, OLD.rating_bayes, OLD.price_cents, OLD.trust_score, OLD.first_published_at);
        END IF;
        RETURN NEW;
      END $$`);
    await db.query(
      'CREATE TRIGGER listings_derive BEFORE INSERT OR UPDATE ON listings FOR EACH ROW EXECUTE FUNCTION listings_derive()',
    );

    // Search: one index per sort over the searchable rows, GIN for text and array filters.
    // One GIN index answers text and facet filters together, so a query like "deploy" for skills on cursor
    // touches only the rows that match all three (btree_gin indexes the scalar type; it is a trusted extension).
    await db.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
    await db.query(
      'CREATE INDEX listings_search_text ON listings USING gin (search_vector, type, targets, tags, tools) WHERE searchable',
    );
    await db.query(
      'CREATE INDEX listings_search_tags ON listings USING gin (tags, targets, tools, settlement_methods) WHERE searchable',
    );
    await db.query('CREATE INDEX listings_by_popular ON listings (install_count DESC, id DESC) WHERE searchable');
    await db.query('CREATE INDEX listings_by_recent ON listings (first_published_at DESC, id DESC) WHERE searchable');
    await db.query('CREATE INDEX listings_by_rated ON listings (rating_bayes DESC, id DESC) WHERE searchable');
    await db.query('CREATE INDEX listings_by_price ON listings (price_cents, id) WHERE searchable');
    await db.query('CREATE INDEX listings_by_trusted ON listings (trust_score DESC, id DESC) WHERE searchable');
    await db.query('CREATE INDEX listings_by_type_popular ON listings (type, install_count DESC, id DESC) WHERE searchable');
    await db.query('CREATE INDEX listings_search_seq ON listings (search_seq)');
    await db.query('CREATE INDEX listings_vendor ON listings (vendor_id)');

    await db.query(`
      CREATE TABLE reviews (
        id            uuid        PRIMARY KEY,
        listing_id    uuid        NOT NULL,
        user_id       uuid        NOT NULL,
        rating        smallint    NOT NULL CHECK (rating BETWEEN 1 AND 5),
        body          text        NOT NULL DEFAULT '',
        helpful_count integer     NOT NULL DEFAULT 0,
        reply_body    text,
        replied_at    timestamptz,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        UNIQUE (listing_id, user_id)
      )`);
    await db.query('CREATE INDEX reviews_newest ON reviews (listing_id, created_at DESC, id DESC)');
    await db.query(`
      CREATE TABLE review_votes (
        review_id uuid    NOT NULL,
        user_id   uuid    NOT NULL,
        helpful   boolean NOT NULL,
        PRIMARY KEY (review_id, user_id)
      )`);
    await db.query(`
      CREATE TABLE listing_installs (
        listing_id   uuid        NOT NULL,
        user_id      uuid        NOT NULL,
        day          date        NOT NULL,
        recorded_at  timestamptz NOT NULL,
        PRIMARY KEY (listing_id, user_id, day)
      )`);
    await db.query('CREATE INDEX listing_installs_recent ON listing_installs (recorded_at, listing_id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE listing_installs');
    await db.query('DROP TABLE review_votes');
    await db.query('DROP TABLE reviews');
    await db.query('DROP TRIGGER listings_derive ON listings');
    await db.query('DROP FUNCTION listings_derive');
    await db.query('DROP TABLE listing_search_history');
    await db.query(`
      ALTER TABLE listings DROP COLUMN vendor_name, DROP COLUMN vendor_verified, DROP COLUMN searchable,
        DROP COLUMN first_published_at, DROP COLUMN latest_signed, DROP COLUMN latest_scan_status, DROP COLUMN rating_sum,
        DROP COLUMN rating_bayes, DROP COLUMN service_success_rate, DROP COLUMN trust_score, DROP COLUMN search_vector,
        DROP COLUMN created_seq, DROP COLUMN search_seq`);
    await db.query('DROP TABLE catalog_state');
    await db.query('DROP SEQUENCE catalog_search_seq');
  }
}
