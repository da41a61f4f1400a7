const { Client } = require('pg');
const { adminUrl, dropDatabasesLike } = require('./test-databases');
const { removeSwaggerMetadata } = require('./swagger-metadata');

module.exports = async function globalTeardown() {
  const runId = process.env.SVC_TEST_RUN_ID;
  if (!runId) return;
  removeSwaggerMetadata(runId);
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await dropDatabasesLike(admin, `${runId}\\_%`);
  await admin.end();
};
