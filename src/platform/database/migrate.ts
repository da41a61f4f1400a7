import { DataSource } from 'typeorm';

/** Runs pending migrations; an advisory lock keeps two starting instances from racing. */
export async function migrate(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query("SELECT pg_advisory_lock(hashtext('svc-migrations'))");
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query("SELECT pg_advisory_unlock(hashtext('svc-migrations'))").catch(() => undefined);
    await runner.release();
  }
}
