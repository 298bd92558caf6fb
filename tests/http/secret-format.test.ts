import { expect } from 'chai';
import { hashSecret, issueSecret } from '../../src/families/users-and-tokens/domain/tokens/secret.js';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { systemRandomness } from '../../src/platform/randomness/system-randomness.js';
import { freshSqlite } from '../support/databases.js';
import { expectError, startServer } from '../support/http-server.js';

const ENC = '/api/crypto/enc?data=hello';

/** The secret with the character at `at` replaced by another letter or digit. */
const mistyped = (secret: string, at: number): string =>
  secret.slice(0, at) + (secret[at] === '7' ? '8' : '7') + secret.slice(at + 1);

describe('http: secrets that are hard to leak', () => {
  it('turns away a mistyped or cut secret with 401/4 by its checksum alone, while the storage is down', async () => {
    const database = await freshSqlite();
    const connection = openDatabase(database.settings);
    const server = await startServer({ env: database.env, database: connection });
    try {
      const secret = await server.tokenFor(['*']);
      expect(secret).to.match(/^uapi_[0-9A-Za-z]{49}$/);
      await connection.destroy();
      // A well-formed secret is looked up, and the storage that is gone answers for it...
      await expectError(
        await server.get(ENC, { Authorization: `Bearer ${issueSecret(systemRandomness).secret}` }),
        500,
        0,
      );
      // ...while one that fails its checksum never reaches the storage.
      for (const presented of [mistyped(secret, 12), mistyped(secret, secret.length - 1), secret.slice(0, -1)]) {
        await expectError(await server.get(ENC, { Authorization: `Bearer ${presented}` }), 401, 4);
      }
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('keeps serving a secret of the shape issued before checksums', async () => {
    const database = await freshSqlite();
    const server = await startServer({ env: database.env });
    try {
      const { userId } = await server.userWithToken(['*']);
      const legacy = `uapi_${systemRandomness.bytes(32).toString('base64url')}`;
      await database
        .db('tokens')
        .where({ user_id: userId })
        .update({ secret_hash: hashSecret(legacy) });
      expect((await server.get(ENC, { Authorization: `Bearer ${legacy}` })).status).to.equal(200);
      await expectError(await server.get(ENC, { Authorization: `Bearer ${legacy.slice(0, -1)}` }), 401, 4);
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
