import { expect } from 'chai';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { cliOn } from './run-cli.js';

for (const backend of sqlDatabases) {
  describe(`cli: the operator too issues at most auth.maxTokensPerUser unexpired tokens a user (${backend.name})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await backend.open();
    });
    afterEach(() => database.drop());

    it('refuses the token beyond the limit with the limit named, and issues again once one is revoked', async () => {
      const cli = cliOn({ ...database.env, UTILITY_API_MAX_TOKENS_PER_USER: '2' });
      expect((await cli('user', 'create', '--username', 'erin', '--permission', 'Cryptography::*')).status).to.equal(0);
      const first = await cli('token', 'create', '--username', 'erin');
      expect(first.status, first.stderr).to.equal(0);
      expect((await cli('token', 'create', '--username', 'erin')).status).to.equal(0);
      const refused = await cli('token', 'create', '--username', 'erin');
      expect(refused.status).not.to.equal(0);
      expect(refused.stderr).to.include(
        'The user holds too many tokens: A user may hold at most 2 unexpired tokens; revoke one first',
      );
      expect(refused.stdout).to.equal('');
      const id = /^Token (\S+) for /.exec(first.stdout)![1]!;
      expect((await cli('token', 'revoke', '--id', id)).status).to.equal(0);
      expect((await cli('token', 'create', '--username', 'erin')).status).to.equal(0);
    });
  });
}
