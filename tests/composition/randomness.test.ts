import { expect } from 'chai';
import { issueSecret } from '../../src/families/users-and-tokens/domain/tokens/secret.js';
import { SeededRandomness } from '../support/seeded-randomness.js';
import { startServer, type TestServer } from '../support/http-server.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('composition: randomness behind a port', () => {
  it('a seeded source gives the same bytes and UUIDs for the same seed, and others for another', () => {
    const draw = (seed: number) => {
      const source = new SeededRandomness(seed);
      return [source.bytes(7).toString('hex'), source.uuid(), source.bytes(40).toString('hex')];
    };
    expect(draw(1)).to.deep.equal(draw(1));
    expect(draw(1)).to.not.deep.equal(draw(2));
    expect(draw(1)[1]).to.match(UUID_V4);
  });

  describe('a server built with a seeded source', () => {
    const servers: TestServer[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });
    const seeded = async (seed: number) => {
      const server = await startServer({ randomness: new SeededRandomness(seed) });
      servers.push(server);
      return server;
    };

    /** Creates a user and a token for it over HTTP; returns what a client sees of their random parts. */
    async function randomPartsSeenBy(server: TestServer) {
      const admin = await server.userWithToken(['Users::*', 'Tokens::*']);
      const createdUser = await server.send('POST', '/api/user/create', {
        token: admin.secret,
        json: {
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: 'ada@example.com',
          password: 'correct horse battery staple',
        },
      });
      expect(createdUser.status).to.equal(201);
      const { uid } = (await createdUser.json()) as { uid: string };
      const createdToken = await server.send('POST', '/api/token/create', {
        token: admin.secret,
        json: { firebaseuid: uid },
      });
      expect(createdToken.status).to.equal(201);
      const { token, id, license } = (await createdToken.json()) as { token: string; id: string; license: string };
      return { adminUid: admin.uid, adminSecret: admin.secret, uid, token, id, license };
    }

    it('gives predictable ids, uids, secrets and licences: the ones the seed yields, in the order drawn', async () => {
      const expected = new SeededRandomness(42);
      expected.uuid();
      const adminUid = expected.bytes(21).toString('base64url');
      const adminSecret = issueSecret(expected).secret;

      const seen = await randomPartsSeenBy(await seeded(42));
      expect(seen.adminUid).to.equal(adminUid);
      expect(seen.adminSecret).to.equal(adminSecret);
      expect(seen.id).to.match(UUID_V4);
      expect(await randomPartsSeenBy(await seeded(42))).to.deep.equal(seen);
      const other = await randomPartsSeenBy(await seeded(43));
      for (const part of ['adminUid', 'adminSecret', 'uid', 'token', 'id', 'license'] as const)
        expect(other[part]).to.not.equal(seen[part]);
    });
  });
});
