import { expect } from 'chai';
import { sqlDatabases } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import {
  expectError,
  httpBackends,
  serverForSuite,
  type TestServer,
  twoInstancesForSuite,
} from '../support/http-server.js';
import { ManualClock } from '../support/manual-clock.js';
import type { CreatedToken } from '../support/token-answers.js';

const ENC = '/api/crypto/enc?data=hello';
const DAY_MS = 86_400_000;

interface Rotated extends CreatedToken {
  rateLimit: { requests: number; perSeconds: number } | null;
  allowedAddresses: string[] | null;
  rotatedFrom: string;
  rotationEndsAt: string;
}
interface Info {
  id: string;
  name: string | null;
  permissions: string[];
  expiresAt: string | null;
  rateLimit: unknown;
  allowedAddresses: string[] | null;
  origin: string;
  rotatedTo: string | null;
  rotationEndsAt: string | null;
  rotatedFrom: string | null;
}

const statusOf = async (server: TestServer, secret: string) =>
  (await server.get(ENC, { Authorization: `Bearer ${secret}` })).status;

const info = async (server: TestServer, secret: string, id?: string): Promise<Info> => {
  const response = await server.send('GET', `/api/token/info${id ? `?id=${id}` : ''}`, { token: secret });
  expect(response.status).to.equal(200);
  return (await response.json()) as Info;
};

const rotate = (server: TestServer, secret: string, json: unknown = {}, id?: string) =>
  server.send('POST', `/api/token/rotate${id ? `?id=${id}` : ''}`, { token: secret, json });

for (const backend of httpBackends) {
  describe(`http: rotating a token (${backend.name})`, () => {
    // The server's time moves only when a test moves it: a grace ends when the test says so.
    const clock = new ManualClock(Date.now());
    const suite = serverForSuite(backend, { clock });

    it('answers 201 with a new token holding what the old one held; both work through the grace, then the old one is 401/4', async () => {
      const server = suite.server;
      const me = await server.userWithToken(['Cryptography::*'], {
        name: 'deploy',
        scopes: ['Cryptography::Encrypt'],
        expiresInMs: 30 * DAY_MS,
        rateLimit: { requests: 50, perSeconds: 10 },
        allowedAddresses: ['127.0.0.0/8', '2001:db8::/32'],
      });
      const before = await info(server, me.secret);
      const response = await rotate(server, me.secret, { graceSeconds: 3600 });
      expect(response.status, await response.clone().text()).to.equal(201);
      const rotated = (await response.json()) as Rotated;
      expect(rotated.token).to.match(/^uapi_[0-9A-Za-z]{49}$/);
      expect(rotated.token).not.to.equal(me.secret);
      expect(rotated.id).not.to.equal(before.id);
      expect(rotated).to.deep.include({
        username: me.username,
        firebaseuid: me.uid,
        permissions: ['Cryptography::Encrypt'],
        expiresAt: before.expiresAt,
        issuedBy: null,
        rateLimit: { requests: 50, perSeconds: 10 },
        allowedAddresses: ['127.0.0.0/8', '2001:db8::/32'],
        rotatedFrom: before.id,
        rotationEndsAt: new Date(clock.now() + 3_600_000).toISOString(),
      });

      const fresh = await info(server, rotated.token);
      expect(fresh).to.deep.include({
        name: 'deploy',
        origin: before.origin,
        rotatedFrom: before.id,
        rotatedTo: null,
        rotationEndsAt: null,
      });
      expect(await info(server, rotated.token, before.id)).to.deep.include({
        rotatedTo: rotated.id,
        rotationEndsAt: new Date(clock.now() + 3_600_000).toISOString(),
        rotatedFrom: null,
      });

      expect(await statusOf(server, me.secret)).to.equal(200);
      expect(await statusOf(server, rotated.token)).to.equal(200);
      clock.advance(3_600_000 - 1);
      expect(await statusOf(server, me.secret)).to.equal(200);
      clock.advance(1);
      await expectError(await server.get(ENC, { Authorization: `Bearer ${me.secret}` }), 401, 4);
      expect(await statusOf(server, rotated.token)).to.equal(200);
    });

    it('keeps the old token a day by default, and not at all with graceSeconds 0', async () => {
      const server = suite.server;
      const byDefault = await server.tokenFor(['*']);
      const rotated = (await (await rotate(server, byDefault)).json()) as Rotated;
      expect(Date.parse(rotated.rotationEndsAt)).to.equal(clock.now() + DAY_MS);
      const atOnce = await server.tokenFor(['*']);
      const replaced = await rotate(server, atOnce, { graceSeconds: 0 });
      expect(replaced.status).to.equal(201);
      await expectError(await server.get(ENC, { Authorization: `Bearer ${atOnce}` }), 401, 4);
      expect(await statusOf(server, ((await replaced.json()) as Rotated).token)).to.equal(200);
    });

    it('answers 409/26 for a token already rotating, and lets its replacement rotate', async () => {
      const server = suite.server;
      const secret = await server.tokenFor(['*']);
      const first = (await (await rotate(server, secret)).json()) as Rotated;
      const body = await expectError(await rotate(server, secret), 409, 26);
      expect(body.details).to.include(first.id);
      await expectError(await rotate(server, first.token, {}, first.rotatedFrom), 409, 26);
      expect((await rotate(server, first.token)).status).to.equal(201);
    });

    it("rotates another user's token only with Tokens::Update; without it the token is unknown (404/18)", async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Cryptography::*']);
      const ownerTokenId = (await info(server, owner.secret)).id;
      const stranger = await server.tokenFor(['Tokens::Read', 'Cryptography::*']);
      await expectError(await rotate(server, stranger, {}, ownerTokenId), 404, 18);
      const admin = await server.tokenFor(['Tokens::Update']);
      const response = await rotate(server, admin, { graceSeconds: 60 }, ownerTokenId);
      expect(response.status).to.equal(201);
      const rotated = (await response.json()) as Rotated;
      expect(rotated).to.include({ username: owner.username, rotatedFrom: ownerTokenId });
      expect(await statusOf(server, rotated.token)).to.equal(200);
      await expectError(await rotate(server, admin, {}, '00000000-0000-4000-8000-000000000000'), 404, 18);
    });

    it('refuses a grace out of range or not in whole seconds, unknown fields and malformed ids, changing nothing', async () => {
      const server = suite.server;
      const secret = await server.tokenFor(['*']);
      const before = await server.snapshot();
      for (const graceSeconds of [-1, 604_801, 1.5, '60', null, true]) {
        await expectError(await rotate(server, secret, { graceSeconds }), 400, 11);
      }
      await expectError(await rotate(server, secret, { grace: 60 }), 400, 11);
      await expectError(await rotate(server, secret, {}, 'not-a-token-id'), 400, 7);
      expect(await server.snapshot()).to.deep.equal(before);
      expect((await rotate(server, secret, { graceSeconds: 604_800 })).status).to.equal(201);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: a rotation's end reaches another instance's cached token (${database.name})`, () => {
    const clock = new ManualClock(Date.now());
    // A token cache longer than the test: only the access-change announcement tells the other instance.
    const instances = twoInstancesForSuite(database, { verifiedTokenTtlMs: 600_000, clock });

    it('refuses the old token on the other instance once its grace has ended', async () => {
      const secret = await instances.one.tokenFor(['*']);
      expect(await statusOf(instances.other, secret)).to.equal(200);
      const rotated = (await (await rotate(instances.one, secret, { graceSeconds: 60 })).json()) as Rotated;
      clock.advance(60_000);
      await eventually(async () =>
        expect((await instances.other.get(ENC, { Authorization: `Bearer ${secret}` })).status).to.equal(401),
      );
      expect(await statusOf(instances.other, rotated.token)).to.equal(200);
    });
  });
}
