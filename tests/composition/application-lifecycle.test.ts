import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config/load-config.js';
import { buildApplication, type Application } from '../../src/container.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { expectRight } from '../support/either.js';

/** The application the server and the CLI build, on `database`, with one token used once and not yet written. */
async function applicationWithUnwrittenUse(database: TestDatabase): Promise<{ app: Application; tokenId: string }> {
  const overrides = {
    encryption: { key: randomBytes(32).toString('base64') },
    auth: { usageFlushIntervalMs: 3_600_000 },
  };
  const config = expectRight(loadConfig({ env: { NODE_ENV: 'test', ...database.env }, overrides }));
  const app = await buildApplication(config);
  const { createUser, issueToken, authenticate } = app.useCases.usersAndTokens;
  expectRight(await createUser.execute({ actor: OPERATOR, username: 'ada', permissions: ['Cryptography::*'] }));
  const { secret, record } = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username: 'ada' } }));
  // One use, as a request makes it: counted in memory, written at the next flush, an hour away.
  expectRight(await authenticate.execute(secret, 'Cryptography::Encrypt'));
  return { app, tokenId: record.id };
}

describe('composition: the application starts and stops its background work', () => {
  for (const { name, open } of sqlDatabases) {
    it(`writes the counted token uses when it closes, stopping everything (${name})`, async () => {
      const database = await open();
      try {
        const { app, tokenId } = await applicationWithUnwrittenUse(database);
        expect(await app.close()).to.deep.equal({ stopFailures: [] });
        expect(Number((await database.db('tokens').where({ id: tokenId }).first()).uses)).to.equal(1);
      } finally {
        await database.drop();
      }
    });

    it(`says which stop failed when the uses cannot be written (${name})`, async () => {
      const database = await open();
      try {
        const { app } = await applicationWithUnwrittenUse(database);
        await database.db.schema.renameTable('tokens', 'tokens_elsewhere');
        expect(await app.close()).to.deep.equal({ stopFailures: ['token usage flush'] });
      } finally {
        await database.drop();
      }
    });
  }
});
