const { Client } = require('pg');
const { adminUrl, dropDatabasesLike } = require('./test-databases');

module.exports = async function globalTeardown() {
  const runId = process.env.SVC_TEST_RUN_ID;
  if (!runId) return;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await dropDatabasesLike(admin, `${runId}\\_%`);
  await admin.end();
};
