import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { issueSecret } from '../../src/families/users-and-tokens/domain/tokens/secret.js';
import { systemRandomness } from '../../src/platform/randomness/system-randomness.js';
import { expectError, httpBackends, serverForSuite } from '../support/http-server.js';
import { ManualClock } from '../support/manual-clock.js';

const ENC = '/api/crypto/enc?data=hello';

for (const backend of httpBackends) {
  describe(`http: authentication and permissions (${backend.name})`, () => {
    // The server's time moves only when a test moves it: an expiry is reached, never waited for.
    const clock = new ManualClock(Date.now());
    const suite = serverForSuite(backend, { clock });

    it('answers 401/3 without an Authorization header or with a blank one', async () => {
      await expectError(await suite.server.get(ENC), 401, 3);
      await expectError(await suite.server.get(ENC, { Authorization: '   ' }), 401, 3);
    });

    it('answers 401/4 for another scheme, an empty token, spaces, junk and unknown tokens', async () => {
      const valid = await suite.server.tokenFor(['*']);
      const presented = [
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        `Token ${valid}`,
        'Bearer',
        'Bearer ',
        `Bearer ${valid.slice(0, 10)} ${valid.slice(10)}`,
        `Bearer ${valid} extra`,
        `Bearer ${'x'.repeat(10_240)}`,
        `Bearer ${issueSecret(systemRandomness).secret}`,
        `Bearer ${valid}x`,
      ];
      for (const header of presented) await expectError(await suite.server.get(ENC, { Authorization: header }), 401, 4);
    });

    it('accepts the Bearer scheme in any case', async () => {
      const token = await suite.server.tokenFor(['*']);
      expect((await suite.server.get(ENC, { Authorization: `bearer ${token}` })).status).to.equal(200);
    });

    it('answers 401/4 for an expired token', async () => {
      const token = await suite.server.tokenFor(['*'], { expiresInMs: 1 });
      clock.advance(5);
      await expectError(await suite.server.get(ENC, { Authorization: `Bearer ${token}` }), 401, 4);
    });

    it('answers 403/5 for a disabled token', async () => {
      const { username } = await suite.server.userWithToken(['*']);
      const { issueToken, updateToken } = suite.server.app.useCases.usersAndTokens;
      const { secret, record } = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username } }));
      expectRight(await updateToken.execute(OPERATOR, record.id, { disabled: true }));
      await expectError(await suite.server.get(ENC, { Authorization: `Bearer ${secret}` }), 403, 5);
    });

    it('answers 403/1 when the user or the token lacks the permission', async () => {
      const userLacks = await suite.server.tokenFor(['Cryptography::Decrypt']);
      const body = await expectError(await suite.server.get(ENC, { Authorization: `Bearer ${userLacks}` }), 403, 1);
      expect(body.message).to.equal('You are not authorized to access this resource');
      const tokenNarrowed = await suite.server.tokenFor(['Cryptography::*'], { scopes: ['Cryptography::Decrypt'] });
      await expectError(await suite.server.get(ENC, { Authorization: `Bearer ${tokenNarrowed}` }), 403, 1);
      expect(
        (await suite.server.get('/api/crypto/dec?data=x', { Authorization: `Bearer ${tokenNarrowed}` })).status,
      ).to.equal(400);
    });

    it('checks auth before parameters: a bad token never learns what is wrong with its query', async () => {
      await expectError(await suite.server.get('/api/crypto/enc'), 401, 3);
      const noPermission = await suite.server.tokenFor([]);
      await expectError(await suite.server.get('/api/crypto/enc', { Authorization: `Bearer ${noPermission}` }), 403, 1);
    });

    it('blocking a user through this process refuses its token on the very next request, and unblocking restores it', async () => {
      const { username, secret } = await suite.server.userWithToken(['*']);
      const headers = { Authorization: `Bearer ${secret}` };
      expect((await suite.server.get(ENC, headers)).status).to.equal(200);
      const updateUser = suite.server.app.useCases.usersAndTokens.updateUser;
      expect((await updateUser.execute(OPERATOR, { username }, { blocked: true }))._tag).to.equal('Right');
      const body = await expectError(await suite.server.get(ENC, headers), 403, 2);
      expect(body.message).to.equal('You are blacklisted from accessing this resource');
      expect((await updateUser.execute(OPERATOR, { username }, { blocked: false }))._tag).to.equal('Right');
      expect((await suite.server.get(ENC, headers)).status).to.equal(200);
    });
  });
}
