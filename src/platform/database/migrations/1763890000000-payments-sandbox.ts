import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox payment gateway's own state: what the processor would keep for
 * us (customers, intents, saved cards), so `npm start` needs no processor.
 * Ids are the processor's (`cus_`, `pi_`, `seti_`, `pm_`), hence text keys.
 * Each create call's idempotency key is unique per kind: a retried call finds
 * the object the first one made, even when both race.
 */
export class PaymentsSandbox1763890000000 implements MigrationInterface {
  name = 'PaymentsSandbox1763890000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sandbox_customers (
        id              text        PRIMARY KEY,
        owner_id        text        NOT NULL,
        idempotency_key text        NOT NULL UNIQUE,
        created_at      timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE sandbox_payment_methods (
        id          text        PRIMARY KEY,
        -- null: the card a top-up was paid with, never saved to a customer
        customer_id text        REFERENCES sandbox_customers (id),
        brand       text        NOT NULL,
        last4       text        NOT NULL,
        exp_month   integer     NOT NULL,
        exp_year    integer     NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX sandbox_payment_methods_customer_idx ON sandbox_payment_methods (customer_id, created_at)');
    // event_id and settled_at are set once, by the first settlement, so every redelivery is the same event.
    await db.query(`
      CREATE TABLE sandbox_payment_intents (
        id                text        PRIMARY KEY,
        client_secret     text        NOT NULL,
        amount_cents      integer     NOT NULL,
        currency          text        NOT NULL,
        customer_id       text        REFERENCES sandbox_customers (id),
        -- not a reference: a declined off-session charge records the unknown method it was asked to use
        payment_method_id text,
        description       text,
        metadata          jsonb       NOT NULL,
        status            text        NOT NULL,
        failure_message   text,
        off_session       boolean     NOT NULL,
        idempotency_key   text        NOT NULL UNIQUE,
        created_at        timestamptz NOT NULL,
        event_id          text        UNIQUE,
        settled_at        timestamptz
      )`);
    await db.query(`
      CREATE TABLE sandbox_setup_intents (
        id                text        PRIMARY KEY,
        client_secret     text        NOT NULL,
        customer_id       text        NOT NULL REFERENCES sandbox_customers (id),
        payment_method_id text        REFERENCES sandbox_payment_methods (id),
        metadata          jsonb       NOT NULL,
        status            text        NOT NULL,
        idempotency_key   text        NOT NULL UNIQUE,
        created_at        timestamptz NOT NULL,
        event_id          text        UNIQUE,
        settled_at        timestamptz
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE sandbox_setup_intents');
    await db.query('DROP TABLE sandbox_payment_intents');
    await db.query('DROP TABLE sandbox_payment_methods');
    await db.query('DROP TABLE sandbox_customers');
  }
}
