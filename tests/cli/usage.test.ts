import { expect } from 'chai';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { startServer } from '../support/http-server.js';
import { cliOn } from './run-cli.js';

describe('cli: usage history, as GET /api/token/usage and /api/user/usage answer it', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshSqlite();
  });
  afterEach(() => database.drop());

  it("reads a token's and a user's requests that a server counted, grouped as asked", async () => {
    const cli = cliOn(database.env);
    expect((await cli('user', 'create', '--username', 'uma', '--permission', 'Cryptography::*')).status).to.equal(0);
    const created = await cli('token', 'create', '--username', 'uma');
    const id = /^Token (\S+) for /.exec(created.stdout)![1]!;
    const server = await startServer({ env: database.env });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await server.get('/api/crypto/enc?data=x', { authorization: `Bearer ${created.lastLine}` })).status,
        ).to.equal(200);
    } finally {
      // The counts are written at the stop.
      await server.close();
    }
    const ofToken = await cli('usage', 'token', '--id', id, '--group', 'operation');
    expect(ofToken.status, ofToken.stderr).to.equal(0);
    const view = JSON.parse(ofToken.stdout) as {
      by: string;
      series: { operation: string; count: number }[];
      total: number;
    };
    expect(view.by).to.equal('hour');
    expect(view.total).to.equal(3);
    expect(view.series.map(({ operation, count }) => ({ operation, count }))).to.deep.equal([
      { operation: 'GET /api/crypto/enc', count: 3 },
    ]);
    const ofUser = await cli('usage', 'user', '--username', 'uma', '--by', 'day', '--group', 'status');
    expect(ofUser.status, ofUser.stderr).to.equal(0);
    expect(JSON.parse(ofUser.stdout)).to.include({ by: 'day', total: 3 });
  });

  it('refuses a malformed range in one line, and a token that does not exist as the API does', async () => {
    const cli = cliOn(database.env);
    const badFrom = await cli('usage', 'user', '--username', 'nobody', '--from', 'yesterday');
    expect(badFrom.status).to.equal(1);
    expect(badFrom.stderr).to.match(/^utility-api: --from must be an ISO 8601 date .*"yesterday"\n$/);
    const badBy = await cli('usage', 'token', '--id', '00000000-0000-4000-8000-000000000000', '--by', 'week');
    expect(badBy.status).to.equal(1);
    expect(badBy.stderr).to.include("'week' is invalid");
    const unknown = await cli('usage', 'token', '--id', '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.match(/^utility-api: Unable to locate requested token/);
  });
});
