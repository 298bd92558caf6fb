// Creates or drops one PostgreSQL database for a CI run: `node .ci/database.mjs create|drop <admin-url> <name>`.
import pg from 'pg';

const [action, adminUrl, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !adminUrl || !/^[a-z0-9_]+$/.test(name ?? '')) {
  console.error('usage: node .ci/database.mjs create|drop <admin-url> <lower_case_name>');
  process.exit(2);
}
const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
try {
  await client.connect();
  await client.query(action === 'create' ? `CREATE DATABASE ${name}` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  console.log(`${action === 'create' ? 'Created' : 'Dropped'} PostgreSQL database ${name}`);
} catch (error) {
  console.error(`PostgreSQL at ${adminUrl}: cannot ${action} database ${name}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
}
