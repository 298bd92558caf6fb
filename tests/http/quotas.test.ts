import { expect } from 'chai';
import { eventually } from '../support/eventually.js';
import { expectError, httpBackends, startServer, type TestServer } from '../support/http-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { deleteKeys, HAS_REDIS_SERVER, REDIS_URL, testKeyPrefix, ThrowawayRedis } from '../support/redis.js';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
/** Two hours before a UTC midnight. */
const EVENING = Date.UTC(2026, 10, 26, 22, 0, 0);
const DAY = { requests: 3, per: 'day' } as const;

/** `[remaining, seconds to the end]` of the quota policy in the RateLimit field. */
function quotaStanding(response: Response): [number, number] {
  const match = /"quota";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  expect(match, `RateLimit: ${response.headers.get('ratelimit')}`).to.not.equal(null);
  return [Number(match![1]), Number(match![2])];
}

const encrypt = (server: TestServer, token: string) => server.get('/api/crypto/enc?data=x', auth(token));

for (const backend of httpBackends) {
  describe(`http: quotas (${backend.name})`, () => {
    let server: TestServer;
    let clock: ManualClock;
    let drop: () => Promise<void>;
    before(async () => {
      const database = await backend.open();
      drop = database.drop;
      clock = new ManualClock(EVENING);
      server = await startServer({
        env: {
          ...database.env,
          UTILITY_API_RATE_LIMIT: '1000/10',
          UTILITY_API_QUOTA_COSTS: '{"Cryptography::Decrypt":5}',
        },
        clock,
      });
    });
    after(async () => {
      await server.close();
      await drop();
    });

    it('answers the 4th request of a quota of 3 a day 429/25 with Retry-After until UTC midnight, both policies announced, and serves again the next day', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt'], { quota: DAY });
      for (let left = 2; left >= 0; left--) {
        const answered = await encrypt(server, token);
        expect(answered.status).to.equal(200);
        expect(answered.headers.get('ratelimit-policy')).to.equal('"default";q=1000;w=10, "quota";q=3;w=86400');
        expect(answered.headers.get('ratelimit')).to.match(/^"default";r=\d+;t=\d+, "quota";r=\d+;t=\d+$/);
        expect(quotaStanding(answered)).to.deep.equal([left, 7200]);
      }
      const refused = await encrypt(server, token);
      const body = await expectError(refused, 429, 25);
      expect(refused.headers.get('retry-after')).to.equal('7200');
      expect(body.details).to.equal(
        'The quota of 3 requests per day has no room for this request; it starts again at 2026-11-27T00:00:00.000Z',
      );
      expect(quotaStanding(refused)).to.deep.equal([0, 7200]);
      // Nothing of a refused request is done: not even its input is read.
      await expectError(await server.get('/api/crypto/enc', auth(token)), 429, 25);

      clock.advance(7200_000);
      const nextDay = await encrypt(server, token);
      expect(nextDay.status).to.equal(200);
      expect(quotaStanding(nextDay)).to.deep.equal([2, 86400]);
      clock.advance(-7200_000);
    });

    it('keeps counting a token’s quota across its rotations: a rotated token starts with what the one it replaced had left', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt', 'Tokens::Update'], {
        quota: { requests: 10, per: 'day' },
      });
      const remainingAfter = async (answered: Promise<Response>) => quotaStanding(await answered)[0];
      // Each rotation is a request of the token's too.
      const rotate = async (secret: string) => {
        const answered = await server.send('POST', '/api/token/rotate', { token: secret, json: { graceSeconds: 600 } });
        expect(answered.status).to.equal(201);
        return ((await answered.json()) as { token: string }).token;
      };
      expect(await remainingAfter(encrypt(server, token))).to.equal(9);
      const second = await rotate(token);
      expect(await remainingAfter(encrypt(server, second))).to.equal(7);
      const third = await rotate(second);
      expect(await remainingAfter(encrypt(server, third))).to.equal(5);
      // The old ones, still in their grace, count against the same quota.
      expect(await remainingAfter(encrypt(server, token))).to.equal(4);
      expect(await remainingAfter(encrypt(server, second))).to.equal(3);
    });

    it("shares a user's quota between the user's tokens, the tighter quota answering, and shows it in user/get and token/info", async () => {
      const admin = await server.tokenFor(['*']);
      const owner = await server.userWithToken(['Cryptography::Encrypt', 'Tokens::Read']);
      const set = await server.send('PATCH', '/api/user/update', {
        token: admin,
        headers: { 'x-uid': owner.uid },
        json: { quota: { requests: 3, per: 'month' } },
      });
      expect(set.status).to.equal(200);
      expect(((await set.json()) as { updatedUser: { quota: unknown } }).updatedUser.quota).to.deep.equal({
        requests: 3,
        per: 'month',
      });
      const got = (await (await server.get('/api/user/get', { ...auth(admin), 'x-uid': owner.uid })).json()) as {
        quota: unknown;
      };
      expect(got.quota).to.deep.equal({ requests: 3, per: 'month' });
      const second = await server.send('POST', '/api/token/create', {
        token: admin,
        headers: { 'x-uid': owner.uid },
        json: { permissions: ['Cryptography::Encrypt'], quota: { requests: 2, per: 'month' } },
      });
      expect(second.status).to.equal(201);
      const { token: secondToken } = (await second.json()) as { token: string };

      // 3 a month (November: 30 days) for the user; the second token's own 2 is tighter at first.
      const first = await encrypt(server, secondToken);
      expect(first.headers.get('ratelimit-policy')).to.equal('"default";q=1000;w=10, "quota";q=2;w=2592000');
      expect(quotaStanding(first)).to.deep.equal([1, 7200 + 4 * 86400]);
      const byUser = await encrypt(server, owner.secret);
      expect(byUser.headers.get('ratelimit-policy')).to.equal('"default";q=1000;w=10, "quota";q=3;w=2592000');
      expect(quotaStanding(byUser)).to.deep.equal([1, 7200 + 4 * 86400]);
      expect(quotaStanding(await encrypt(server, secondToken))).to.deep.equal([0, 7200 + 4 * 86400]);
      await expectError(await encrypt(server, owner.secret), 429, 25);
      const refused = await encrypt(server, secondToken);
      await expectError(refused, 429, 25);
      expect(refused.headers.get('retry-after')).to.equal(String(7200 + 4 * 86400));

      const removed = await server.send('PATCH', '/api/user/update', {
        token: admin,
        headers: { 'x-uid': owner.uid },
        json: { quota: null },
      });
      expect(removed.status).to.equal(200);
      const free = await encrypt(server, owner.secret);
      expect(free.status).to.equal(200);
      expect(free.headers.get('ratelimit-policy')).to.equal('"default";q=1000;w=10');
    });

    it('charges an operation the operator priced at 5 five requests, and refuses it without spending when fewer are left', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt', 'Cryptography::Decrypt'], {
        quota: { requests: 7, per: 'day' },
      });
      const encrypted = await encrypt(server, token);
      expect(quotaStanding(encrypted)).to.deep.equal([6, 7200]);
      const data = await encrypted.text();
      const decrypted = await server.get(`/api/crypto/dec?data=${encodeURIComponent(data)}`, auth(token));
      expect(quotaStanding(decrypted)).to.deep.equal([1, 7200]);
      const refused = await server.get(`/api/crypto/dec?data=${encodeURIComponent(data)}`, auth(token));
      await expectError(refused, 429, 25);
      expect(quotaStanding(refused)).to.deep.equal([1, 7200]);
      expect(quotaStanding(await encrypt(server, token))).to.deep.equal([0, 7200]);
    });

    it("refuses a quota larger than the caller's token's or user's, or than the owner's, 400/11 with details", async () => {
      const issuer = await server.tokenFor(['Cryptography::Encrypt', 'Tokens::Create', 'Tokens::Update'], {
        quota: { requests: 10, per: 'day' },
      });
      const create = (quota: unknown) =>
        server.send('POST', '/api/token/create', {
          token: issuer,
          json: { permissions: ['Cryptography::Encrypt'], quota },
        });
      const tooMany = await expectError(await create({ requests: 11, per: 'day' }), 400, 11);
      expect(tooMany.details).to.include("quota may not exceed your token's own, 10 requests per day");
      await expectError(await create({ requests: 11, per: 'month' }), 400, 11);
      const within = await create({ requests: 10, per: 'month' });
      expect(within.status).to.equal(201);
      const created = (await within.json()) as { id: string; quota: unknown };
      expect(created.quota).to.deep.equal({ requests: 10, per: 'month' });
      // Without one asked for, the new token takes the caller's own.
      const inherited = (await (await create(undefined)).json()) as { quota: unknown };
      expect(inherited.quota).to.deep.equal({ requests: 10, per: 'day' });

      const update = (quota: unknown) =>
        server.send('PATCH', `/api/token/update?id=${created.id}`, { token: issuer, json: { quota } });
      await expectError(await update({ requests: 11, per: 'day' }), 400, 11);
      const removed = await expectError(await update(null), 400, 11);
      expect(removed.details).to.include('quota may not be removed');
      const lowered = await update({ requests: 5, per: 'month' });
      expect(lowered.status).to.equal(200);
      expect(((await lowered.json()) as { quota: unknown }).quota).to.deep.equal({ requests: 5, per: 'month' });
      const info = await server.get(`/api/token/info?id=${created.id}`, auth(issuer));
      expect(((await info.json()) as { quota: unknown }).quota).to.deep.equal({ requests: 5, per: 'month' });

      // The owner's user quota bounds the tokens issued to them.
      const admin = await server.tokenFor(['*']);
      const owner = await server.userWithToken(['Cryptography::Encrypt']);
      await server.send('PATCH', '/api/user/update', {
        token: admin,
        headers: { 'x-uid': owner.uid },
        json: { quota: { requests: 100, per: 'month' } },
      });
      const forOwner = (quota: unknown) =>
        server.send('POST', '/api/token/create', { token: admin, headers: { 'x-uid': owner.uid }, json: { quota } });
      const beyondOwner = await expectError(await forOwner({ requests: 4, per: 'day' }), 400, 11);
      expect(beyondOwner.details).to.include("its owner's, 100 requests per month");
      expect((await forOwner({ requests: 3, per: 'day' })).status).to.equal(201);
    });

    it('changes a quota only with Users::Update, even on oneself, and never beyond the caller’s own', async () => {
      const me = await server.userWithToken(['Cryptography::Encrypt']);
      await expectError(
        await server.send('PATCH', '/api/user/update', {
          token: me.secret,
          json: { quota: { requests: 5, per: 'day' } },
        }),
        403,
        1,
      );
      const limited = await server.userWithToken(['Users::Update', 'Cryptography::Encrypt'], { quota: DAY });
      const other = await server.userWithToken(['Cryptography::Encrypt']);
      const refused = await server.send('PATCH', '/api/user/update', {
        token: limited.secret,
        headers: { 'x-uid': other.uid },
        json: { quota: { requests: 4, per: 'day' } },
      });
      expect((await expectError(refused, 400, 11)).details).to.include("your token's own, 3 requests per day");
    });

    it('refuses every malformed quota 400/11 on token/create, token/update and user/update', async () => {
      const admin = await server.tokenFor(['*']);
      const bad: unknown[] = [
        'x',
        3,
        [],
        { requests: 0, per: 'day' },
        { requests: -1, per: 'day' },
        { requests: 1.5, per: 'day' },
        { requests: '3', per: 'day' },
        { requests: 3, per: 'week' },
        { requests: 3 },
        { per: 'day' },
        { requests: 3, per: 'day', burst: 1 },
        { requests: 1_000_000_001, per: 'day' },
      ];
      for (const quota of bad) {
        await expectError(await server.send('POST', '/api/token/create', { token: admin, json: { quota } }), 400, 11);
        await expectError(await server.send('PATCH', '/api/token/update', { token: admin, json: { quota } }), 400, 11);
        await expectError(await server.send('PATCH', '/api/user/update', { token: admin, json: { quota } }), 400, 11);
      }
      await expectError(
        await server.send('POST', '/api/token/create', { token: admin, json: { quota: null } }),
        400,
        11,
      );
    });
  });
}

(REDIS_URL ? describe : describe.skip)('http: quotas shared through Redis by two instances', () => {
  const keyPrefix = testKeyPrefix();
  const servers: TestServer[] = [];
  let drop: () => Promise<void>;
  before(async () => {
    const database = await httpBackends[1]!.open();
    drop = database.drop;
    for (let i = 0; i < 2; i++)
      servers.push(
        await startServer({
          env: { ...database.env, REDIS_URL: REDIS_URL!, UTILITY_API_REDIS_KEY_PREFIX: keyPrefix },
        }),
      );
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await drop();
    await deleteKeys(REDIS_URL!, keyPrefix);
  });

  it('holds a token to its quota together: of 10 requests spread over both, exactly 3 pass', async () => {
    const token = await servers[0]!.tokenFor(['Cryptography::Encrypt'], { quota: DAY });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await encrypt(servers[i % 2]!, token)).status);
    expect(statuses.filter((status) => status === 200)).to.have.length(3);
    expect(statuses.filter((status) => status === 429)).to.have.length(7);
  });
});

(HAS_REDIS_SERVER ? describe : describe.skip)('http: quotas when Redis goes away and comes back', () => {
  let redis: ThrowawayRedis;
  let server: TestServer;
  before(async () => {
    redis = await ThrowawayRedis.start();
    server = await startServer({ env: { REDIS_URL: redis.url } });
  });
  after(async () => {
    await server.close();
    await redis.stop();
  });

  it('counts in memory while it is gone, readiness warning, and in Redis again once it is back', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt'], { quota: { requests: 4, per: 'day' } });
    expect(quotaStanding(await encrypt(server, token))[0]).to.equal(3);
    await redis.stop();
    // This instance's memory counts from nothing: 4 pass, the 5th is refused.
    for (let left = 3; left >= 0; left--) expect(quotaStanding(await encrypt(server, token))[0]).to.equal(left);
    await expectError(await encrypt(server, token), 429, 25);
    const health = (await (await server.get('/readyz')).json()) as { status: string };
    expect(health.status).to.equal('warn');
    await redis.start();
    await eventually(async () =>
      expect(((await (await server.get('/readyz')).json()) as { status: string }).status).to.equal('pass'),
    );
    // Redis starts empty here (nothing saved): the count goes on there, apart from memory's.
    expect(quotaStanding(await encrypt(server, token))[0]).to.equal(3);
  });
});
