import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of the billing module: processor customers and the cards saved for them (display fields only). */
export class Billing1763920000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE billing_customers (
        owner_kind text NOT NULL,
        owner_id text NOT NULL,
        customer_id text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (owner_kind, owner_id)
      )`);
    await db.query(`
      CREATE TABLE billing_payment_methods (
        owner_kind text NOT NULL,
        owner_id text NOT NULL,
        payment_method_id text NOT NULL,
        brand text NOT NULL,
        last4 text NOT NULL,
        exp_month integer NOT NULL,
        exp_year integer NOT NULL,
        saved_at timestamptz NOT NULL,
        PRIMARY KEY (owner_kind, owner_id, payment_method_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE billing_payment_methods');
    await db.query('DROP TABLE billing_customers');
  }
}
