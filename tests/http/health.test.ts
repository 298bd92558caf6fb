import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { freshPostgres, freshSqlite, POSTGRES_URL, type TestDatabase } from '../support/databases.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

interface HealthDocument {
  status: string;
  description: string;
  output?: string;
  checks?: Record<
    string,
    {
      componentType: string;
      observedValue: number;
      observedUnit: string;
      status: string;
      time: string;
      output?: string;
    }[]
  >;
}

async function healthOf(server: TestServer, path: string): Promise<{ status: number; document: HealthDocument }> {
  const response = await server.get(path);
  expect(response.headers.get('content-type')).to.equal('application/health+json');
  expect(response.headers.get('x-request-id')).to.be.a('string');
  return { status: response.status, document: (await response.json()) as HealthDocument };
}

describe('http: /livez and /readyz', () => {
  let database: TestDatabase;
  /** The server's connection, opened here so that a test can take it away. */
  let connection: Knex;
  let server: TestServer;
  beforeEach(async () => {
    database = await freshSqlite();
    connection = openDatabase(database.settings);
    server = await startServer({ env: database.env, database: connection });
  });
  afterEach(async () => {
    await server.close();
    await connection.destroy();
    await database.drop();
  });

  it('answer without a token: alive, and ready once the database answers', async () => {
    expect(await healthOf(server, '/livez')).to.deep.equal({
      status: 200,
      document: { status: 'pass', description: 'utility-api' },
    });
    const { status, document } = await healthOf(server, '/readyz');
    expect(status).to.equal(200);
    expect(document.status).to.equal('pass');
    const [database] = document.checks!['database:responseTime']!;
    expect(database).to.include({ componentType: 'datastore', observedUnit: 'ms', status: 'pass' });
    expect(database!.observedValue).to.be.a('number').within(0, 1000);
    expect(Date.parse(database!.time)).to.be.within(Date.now() - 60_000, Date.now() + 1_000);
  });

  it('is not ready, 503, while the database does not answer; still alive', async () => {
    await connection.destroy();
    const { status, document } = await healthOf(server, '/readyz');
    expect(status).to.equal(503);
    expect(document.status).to.equal('fail');
    expect(document.checks!['database:responseTime']![0]).to.include({ status: 'fail' });
    expect(document.checks!['database:responseTime']![0]!.output).to.be.a('string').and.not.equal('');
    expect((await healthOf(server, '/livez')).status).to.equal(200);
  });

  it('fails readiness from the moment a stop begins, while everything else is still served', async () => {
    server.app.beginDrain();
    const { status, document } = await healthOf(server, '/readyz');
    expect(status).to.equal(503);
    expect(document).to.deep.equal({
      status: 'fail',
      description: 'utility-api',
      output: 'stopping: finishing the requests received, taking no new ones',
    });
    expect((await healthOf(server, '/livez')).status).to.equal(200);
    const token = await server.tokenFor(['Cryptography::Encrypt']);
    expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${token}` })).status).to.equal(200);
  });
});

describe('http: /readyz with PostgreSQL gone', () => {
  (POSTGRES_URL ? it : it.skip)('names no address and no error text of the database: anyone may ask', async () => {
    const database = await freshPostgres();
    const target = new URL(POSTGRES_URL!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(database.env.DATABASE_URL!);
    url.port = String(proxy.port);
    const server = await startServer({ env: { ...database.env, DATABASE_URL: url.toString() } });
    try {
      expect((await healthOf(server, '/readyz')).status).to.equal(200);
      await proxy.close();
      const { status, document } = await healthOf(server, '/readyz');
      expect(status).to.equal(503);
      expect(document.checks!['database:responseTime']![0]!.output).to.equal('does not answer');
      expect(JSON.stringify(document))
        .to.not.include('127.0.0.1')
        .and.not.include(String(proxy.port))
        .and.not.include('ECONNREFUSED');
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
