// Shared by the global setup/teardown (plain JS) and the typed helpers.
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

function adminUrl() {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

function databaseUrl(name) {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabasesLike(admin, pattern) {
  const { rows } = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [pattern]);
  for (const { datname } of rows) {
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

/** Databases left by runs that were killed before their teardown. */
async function dropStaleTestDatabases(admin) {
  const { rows } = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_test\\_%'");
  const now = Date.now();
  for (const { datname } of rows) {
    const started = parseInt(datname.split('_')[2], 36);
    if (Number.isFinite(started) && now - started > STALE_AFTER_MS) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  }
}

module.exports = { adminUrl, databaseUrl, dropDatabasesLike, dropStaleTestDatabases };
