import { expect } from 'chai';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { cliOn } from './run-cli.js';

for (const backend of sqlDatabases) {
  describe(`cli: quotas on tokens and users, as over HTTP (${backend.name})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await backend.open();
    });
    afterEach(() => database.drop());

    it('gives a token a quota at creation, a user one on update, and takes the user’s away with none', async () => {
      const cli = cliOn(database.env);
      expect((await cli('user', 'create', '--username', 'quinn', '--permission', 'Cryptography::*')).status).to.equal(
        0,
      );
      const created = await cli('token', 'create', '--username', 'quinn', '--quota', '1000/day');
      expect(created.status, created.stderr).to.equal(0);
      expect(created.stdout).to.include('  quota:       1000 requests per day\n');
      const id = /^Token (\S+) for /.exec(created.stdout)![1]!;
      const info = JSON.parse((await cli('token', 'info', '--id', id)).stdout) as { quota: unknown };
      expect(info.quota).to.deep.equal({ requests: 1000, per: 'day' });

      const userQuota = async () =>
        (JSON.parse((await cli('user', 'get', '--username', 'quinn')).stdout) as { quota: unknown }).quota;
      expect((await cli('user', 'update', '--username', 'quinn', '--quota', '50000/month')).status).to.equal(0);
      expect(await userQuota()).to.deep.equal({ requests: 50000, per: 'month' });
      expect((await cli('user', 'update', '--username', 'quinn', '--quota', 'none')).status).to.equal(0);
      expect(await userQuota()).to.equal(null);
    });

    it('refuses a malformed quota in one line before opening the database, and issues nothing', async () => {
      const cli = cliOn(database.env);
      expect((await cli('user', 'create', '--username', 'quinn')).status).to.equal(0);
      for (const quota of ['1000/week', '0/day', '1000', '1000/Day', '1000000001/month', '-1/day', '1.5/day']) {
        const refused = await cli('token', 'create', '--username', 'quinn', '--quota', quota);
        expect(refused.status, quota).to.equal(1);
        expect(refused.stderr, quota).to.match(/^utility-api: --quota must look like 1000\/day or 50000\/month .*\n$/);
        expect(refused.stdout, quota).to.equal('');
      }
      expect((await cli('user', 'update', '--username', 'quinn', '--quota', 'unlimited')).status).to.equal(1);
      expect(JSON.parse((await cli('token', 'list', '--username', 'quinn')).stdout)).to.deep.equal([]);
    });
  });
}
