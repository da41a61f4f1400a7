import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Org package visibility: a listing is `public`, `private` or `org_only`; only public listings are
 * searchable (so search, leaderboard, audits and services leave the others out). A vendor profile may
 * belong to an org (`catalog_vendors.org_id`), whose members may see its non-public listings.
 */
export class ListingVisibility1764005000000 implements MigrationInterface {
  name = 'ListingVisibility1764005000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE listings ADD COLUMN visibility text NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private', 'org_only'))`,
    );
    await db.query('ALTER TABLE catalog_vendors ADD COLUMN org_id uuid');
    await db.query(
      listingsDerive(`NEW.status = 'published' AND NEW.latest_release_id IS NOT NULL AND NEW.visibility = 'public'`),
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(listingsDerive(`NEW.status = 'published' AND NEW.latest_release_id IS NOT NULL`));
    await db.query('ALTER TABLE catalog_vendors DROP COLUMN org_id');
    await db.query('ALTER TABLE listings DROP COLUMN visibility');
  }
}

/** The discovery migration's derivation, with `searchable` as given. */
function listingsDerive(searchable: string): string {
  return `
      CREATE OR REPLACE FUNCTION listings_derive() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        global_mean double precision;
        score double precision;
        next_seq bigint;
      BEGIN
        NEW.searchable := ${searchable};
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
      END $$`;
}
