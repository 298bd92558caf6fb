import { request } from 'node:http';
import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { expectError, httpBackends, serverForSuite, type TestServer } from '../support/http-server.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

interface Created {
  token: string;
  id: string;
  username: string;
  firebaseuid: string;
  permissions: string[];
  expiresAt: string | null;
  issuedBy: unknown;
}

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

let addressSequence = 0;
/** A loopback address of its own (127.0.0.0/8 is all loopback), so that each test is its own client. */
const newClientAddress = () => `127.0.${Math.floor(++addressSequence / 250)}.${(addressSequence % 250) + 2}`;

/** POST /api/token/create from the given local address, answered as a fetch Response. */
function createFrom(
  server: TestServer,
  from: string,
  authorization: string,
  options: { json?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const body = JSON.stringify(options.json ?? {});
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: server.port,
        localAddress: from,
        method: 'POST',
        path: '/api/token/create',
        headers: {
          authorization,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...options.headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode!, headers }));
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

for (const backend of httpBackends) {
  describe(`http: a token for a password (${backend.name})`, () => {
    // Loopback's first address is this suite's proxy; the others are clients of their own.
    const suite = serverForSuite(backend, {
      overrides: { auth: { loginThrottle: { perAddress: 10 } }, http: { trustedProxies: ['127.0.0.1/32'] } },
    });
    let server: TestServer;
    before(() => {
      server = suite.server;
    });

    /** The password logins the audit trail holds, newest first, written after the entry `afterId` if given. */
    const loginEntries = async (afterId = '0') =>
      expectRight(
        await server.app.useCases.audit.readAudit.list(OPERATOR, { action: 'login.password', limit: 100 }),
      ).entries.filter((entry) => Number(entry.id) > Number(afterId));
    const lastEntryId = async () => (await loginEntries())[0]?.id ?? '0';

    let userSequence = 0;
    const userWithPassword = async (permissions: string[], password: string | null = PASSWORD) => {
      userSequence += 1;
      const username = `login${userSequence}`;
      return expectRight(
        await server.app.useCases.usersAndTokens.createUser.execute({
          actor: OPERATOR,
          username,
          email: `${username}@Example.com`,
          password: password ?? undefined,
          permissions,
        }),
      );
    };

    it('answers Basic with username or email and password with 201 and a token of that user’s permissions for 30 days', async () => {
      const from = newClientAddress();
      const user = await userWithPassword(['Cryptography::Encrypt', 'Phone::Details']);
      for (const login of [user.username, user.email!, user.email!.toUpperCase()]) {
        const response = await createFrom(server, from, basic(login, PASSWORD));
        expect(response.status, await response.clone().text()).to.equal(201);
        const created = (await response.json()) as Created;
        expect(created).to.deep.include({
          username: user.username,
          firebaseuid: user.uid,
          permissions: ['Cryptography::Encrypt', 'Phone::Details'],
          issuedBy: null,
        });
        expect(Math.abs(Date.parse(created.expiresAt!) - Date.now() - 30 * DAY)).to.be.below(60_000);
        expect(
          (await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${created.token}` })).status,
        ).to.equal(200);
        await expectError(
          await server.get('/api/crypto/dec?data=x', { Authorization: `Bearer ${created.token}` }),
          403,
          1,
        );
      }
      const narrowed = (await (
        await createFrom(server, from, basic(user.username, PASSWORD), {
          json: { permissions: ['Phone::Details'], expiresIn: '1h', name: 'laptop' },
        })
      ).json()) as Created;
      expect(narrowed.permissions).to.deep.equal(['Phone::Details']);
      expect(Math.abs(Date.parse(narrowed.expiresAt!) - Date.now() - 3_600_000)).to.be.below(60_000);
      await expectError(
        await createFrom(server, from, basic(user.username, PASSWORD), {
          json: { permissions: ['Cryptography::Decrypt'] },
        }),
        403,
        1,
      );
    });

    it('takes the longest password a user may have, counted in characters: 256 emoji', async () => {
      const from = newClientAddress();
      const longest = '\u{1F511}'.repeat(256);
      const user = await userWithPassword(['Cryptography::Encrypt'], longest);
      const response = await createFrom(server, from, basic(user.username, longest));
      expect(response.status, await response.clone().text()).to.equal(201);
      await expectError(await createFrom(server, from, basic(user.username, `${longest}x`)), 401, 4);
    });

    it('answers a wrong password, an unknown user, a user without a password and a malformed Basic value alike: 401/4, nothing stored', async () => {
      const from = newClientAddress();
      const user = await userWithPassword(['Cryptography::Encrypt']);
      const passwordless = await userWithPassword(['Cryptography::Encrypt'], null);
      const before = await server.snapshot({ audit: false });
      const lastBefore = await lastEntryId();
      const refusals = [];
      for (const authorization of [
        basic(user.username, 'not the password'),
        basic('nobody-here', PASSWORD),
        basic(passwordless.username, PASSWORD),
      ]) {
        refusals.push(await expectError(await createFrom(server, from, authorization), 401, 4));
      }
      // Each from an address of its own: a malformed value counts as a failure too, and these are more than 5.
      for (const authorization of [
        'Basic !!!!',
        `Basic ${Buffer.from(user.username).toString('base64')}`,
        basic('', PASSWORD),
        `Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`,
        'Basic',
      ]) {
        refusals.push(await expectError(await createFrom(server, newClientAddress(), authorization), 401, 4));
      }
      expect(new Set(refusals.map((body) => JSON.stringify(body))).size).to.equal(1);
      expect(await server.snapshot({ audit: false })).to.deep.equal(before);
      // Each is in the audit trail as a failure from where it came; an unreadable Basic value as the login ":", which no username can be.
      expect(
        (await loginEntries(lastBefore)).map((entry) => [entry.outcome, entry.target.label, entry.address]),
      ).to.deep.equal([
        ...Array.from({ length: 5 }, (_, index) => [
          'failure',
          ':',
          `127.0.0.${Number(from.split('.')[3]) + 5 - index}`,
        ]),
        ['failure', passwordless.username, from],
        ['failure', 'nobody-here', from],
        ['failure', user.username, from],
      ]);
    });

    it('tells a blocked user 403/2 once the password is right', async () => {
      const from = newClientAddress();
      const user = await userWithPassword(['Cryptography::Encrypt']);
      expectRight(
        await server.app.useCases.usersAndTokens.updateUser.execute(OPERATOR, { uid: user.uid }, { blocked: true }),
      );
      const before = await server.snapshot({ audit: false });
      const lastBefore = await lastEntryId();
      await expectError(await createFrom(server, from, basic(user.username, 'not the password')), 401, 4);
      await expectError(await createFrom(server, from, basic(user.username, PASSWORD)), 403, 2);
      expect(await server.snapshot({ audit: false })).to.deep.equal(before);
      expect((await loginEntries(lastBefore)).map((entry) => [entry.outcome, entry.actor.uid])).to.deep.equal([
        ['failure', user.uid],
        ['failure', null],
      ]);
    });

    it('issues to yourself only: another user named by firebaseuid is 400/11, by x-uid 400/9', async () => {
      const from = newClientAddress();
      const user = await userWithPassword(['*']);
      const other = await userWithPassword([]);
      const before = await server.snapshot({ audit: false });
      const byBody = await expectError(
        await createFrom(server, from, basic(user.username, PASSWORD), { json: { firebaseuid: other.uid } }),
        400,
        11,
      );
      expect(byBody.details).to.include('firebaseuid');
      const byHeader = await expectError(
        await createFrom(server, from, basic(user.username, PASSWORD), { headers: { 'x-uid': other.uid } }),
        400,
        9,
      );
      expect(byHeader.details).to.include('x-uid');
      // Both logins succeeded (and are in the trail); the tokens were refused.
      expect(await server.snapshot({ audit: false })).to.deep.equal(before);
      const self = await createFrom(server, from, basic(user.username, PASSWORD), {
        json: { firebaseuid: user.uid },
        headers: { 'x-uid': user.uid },
      });
      expect(self.status).to.equal(201);
    });

    it('takes Basic on token/create only: elsewhere it stays 401/4, right password or not', async () => {
      const user = await userWithPassword(['*']);
      const authorization = basic(user.username, PASSWORD);
      await expectError(await server.get('/api/crypto/enc?data=x', { Authorization: authorization }), 401, 4);
      await expectError(await server.get('/api/token/list', { Authorization: authorization }), 401, 4);
      await expectError(
        await server.send('PATCH', '/api/user/update', {
          headers: { Authorization: authorization },
          json: { password: 'a new password here' },
        }),
        401,
        4,
      );
      // The OpenAPI document says so too.
      const document = (await (await server.get('/api/openapi.json')).json()) as {
        paths: Record<string, Record<string, { security: unknown }>>;
      };
      const withBasic = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => JSON.stringify(operation.security ?? []).includes('basic'))
          .map(([method]) => `${method} ${path}`),
      );
      expect(withBasic).to.deep.equal(['post /api/token/create']);
    });

    it('makes an account wait after 5 failures from one address: 429/25 with Retry-After there, even for the right password, nowhere else', async () => {
      const user = await userWithPassword(['Cryptography::Encrypt']);
      const stranger = newClientAddress();
      for (let i = 0; i < 5; i++)
        await expectError(await createFrom(server, stranger, basic(user.username, `wrong ${i}`)), 401, 4);
      const before = await server.snapshot();
      for (const login of [user.username, user.email!]) {
        const response = await createFrom(server, stranger, basic(login, PASSWORD));
        expect(response.headers.get('retry-after')).to.match(/^[1-9][0-9]*$/);
        expect(Number(response.headers.get('retry-after'))).to.be.within(1, 60);
        const body = await expectError(response, 429, 25);
        expect(body.details).to.match(/^Try again in [0-9]+ s$/);
      }
      expect(await server.snapshot()).to.deep.equal(before);
      // The owner, from an address that has not failed for the account, is not locked out by a stranger.
      expect((await createFrom(server, newClientAddress(), basic(user.username, PASSWORD))).status).to.equal(201);
      // Nor is anyone else from the stranger's address.
      const other = await userWithPassword([]);
      expect((await createFrom(server, stranger, basic(other.username, PASSWORD))).status).to.equal(201);
    });

    it('checks at most 5 of many wrong passwords sent at once from one address, and refuses the rest with 429 (all 60 used to be checked)', async () => {
      const user = await userWithPassword([]);
      const from = newClientAddress();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createFrom(server, from, basic(user.username, `guess ${i}`))),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 401)).to.have.length(5);
      expect(statuses.filter((status) => status === 429)).to.have.length(15);
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
      // Its owner, from elsewhere, is let in.
      expect((await createFrom(server, newClientAddress(), basic(user.username, PASSWORD))).status).to.equal(201);
    });

    it('slows down an account failing from many addresses, and lets its owner in', async () => {
      const user = await userWithPassword([]);
      for (let i = 0; i < 6; i++)
        await expectError(await createFrom(server, newClientAddress(), basic(user.username, `wrong ${i}`)), 401, 4);
      const started = performance.now();
      expect((await createFrom(server, newClientAddress(), basic(user.username, PASSWORD))).status).to.equal(201);
      expect(performance.now() - started).to.be.at.least(400);
    });

    it('makes a client address wait only after auth.loginThrottle.perAddress failures over any accounts, known or not', async () => {
      const from = newClientAddress();
      const user = await userWithPassword(['Cryptography::Encrypt']);
      for (let i = 0; i < 9; i++)
        await expectError(await createFrom(server, from, basic(`guess${i}`, 'guess')), 401, 4);
      expect((await createFrom(server, from, basic(user.username, PASSWORD))).status).to.equal(201);
      await expectError(await createFrom(server, from, basic('guess9', 'guess')), 401, 4);
      await expectError(await createFrom(server, from, basic(user.username, PASSWORD)), 429, 25);
      expect((await createFrom(server, newClientAddress(), basic(user.username, PASSWORD))).status).to.equal(201);
    });

    it('counts an IPv6 client by its /64: other addresses of that network share its count, another network does not', async () => {
      const user = await userWithPassword([]);
      const behindProxy = (client: string, password: string) =>
        createFrom(server, '127.0.0.1', basic(user.username, password), { headers: { 'X-Forwarded-For': client } });
      for (let i = 1; i <= 5; i++) await expectError(await behindProxy(`2001:db8:7:7::${i}`, 'wrong'), 401, 4);
      await expectError(await behindProxy('2001:db8:7:7:ffff::99', PASSWORD), 429, 25);
      expect((await behindProxy('2001:db8:7:8::1', PASSWORD)).status).to.equal(201);
    });

    it('tells the clients of a trusted proxy apart by X-Forwarded-For, read from the right; from any other peer the header changes nothing', async () => {
      const user = await userWithPassword([]);
      const behindProxy = (client: string, password: string) =>
        createFrom(server, '127.0.0.1', basic(user.username, password), { headers: { 'X-Forwarded-For': client } });
      // What the client put in the header itself, left of what the proxy appended, is never read.
      for (let i = 0; i < 5; i++) await expectError(await behindProxy(`10.9.9.${i}, 198.51.100.7`, 'wrong'), 401, 4);
      await expectError(await behindProxy('198.51.100.7', PASSWORD), 429, 25);
      expect((await behindProxy('198.51.100.8', PASSWORD)).status).to.equal(201);

      // Another account, so that the slowing down of one failing from many addresses (seconds,
      // after the ten failures of both halves on one account) is no part of this test.
      const other = await userWithPassword([]);
      const direct = newClientAddress();
      for (let i = 0; i < 5; i++)
        await expectError(
          await createFrom(server, direct, basic(other.username, 'wrong'), {
            headers: { 'X-Forwarded-For': `198.51.100.${20 + i}` },
          }),
          401,
          4,
        );
      await expectError(
        await createFrom(server, direct, basic(other.username, PASSWORD), {
          headers: { 'X-Forwarded-For': '198.51.100.99' },
        }),
        429,
        25,
      );
    });
  });
}
