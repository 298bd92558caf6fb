import { expect } from 'chai';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { eventually, settlesWithin } from '../support/eventually.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import {
  closedPort,
  deleteKeys,
  HAS_REDIS_SERVER,
  REDIS_URL,
  testKeyPrefix,
  ThrowawayRedis,
} from '../support/redis.js';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const RETRY_OR_RESET = /^"(default|token)";r=(\d+);t=(\d+)$/;

/** `[remaining, seconds to the window's end]` from the RateLimit field. */
function standing(response: Response): [number, number] {
  const match = RETRY_OR_RESET.exec(response.headers.get('ratelimit') ?? '');
  expect(match, `RateLimit: ${response.headers.get('ratelimit')}`).to.not.equal(null);
  return [Number(match![2]), Number(match![3])];
}

interface Health {
  status: string;
  checks?: Record<string, { status: string; output?: string }[]>;
}
const readiness = async (server: TestServer): Promise<Health> => (await (await server.get('/readyz')).json()) as Health;

describe('http: rate limits per token', () => {
  describe('under the default policy (3 requests per 60 s here)', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ env: { UTILITY_API_RATE_LIMIT: '3/60' } });
    });
    after(async () => server.close());

    it('announces the policy and what remains on every answer to a token, errors included, then refuses with 429/25 and Retry-After', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt']);
      const first = await server.get('/api/crypto/enc?data=a', auth(token));
      expect(first.status).to.equal(200);
      expect(first.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
      expect(standing(first)[0]).to.equal(2);
      expect(standing(first)[1]).to.be.within(59, 60);
      const refusedInput = await server.get('/api/crypto/enc', auth(token));
      await expectError(refusedInput, 400, 6);
      expect(standing(refusedInput)[0]).to.equal(1);
      expect(standing(await server.get('/api/crypto/enc?data=c', auth(token)))[0]).to.equal(0);

      const refused = await server.get('/api/crypto/enc?data=d', auth(token));
      const body = await expectError(refused, 429, 25);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 60);
      expect(body.details).to.equal(`Try again in ${retryAfter} s`);
      expect(refused.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
      expect(standing(refused)).to.deep.equal([0, retryAfter]);

      // Each user counts alone; a request with no valid token is counted under no policy.
      expect(
        standing(await server.get('/api/crypto/enc?data=e', auth(await server.tokenFor(['Cryptography::Encrypt']))))[0],
      ).to.equal(2);
      const anonymous = await server.get('/api/crypto/enc?data=f');
      await expectError(anonymous, 401, 3);
      expect(anonymous.headers.get('ratelimit')).to.equal(null);
    });
  });

  describe('per user, however many tokens the user mints (default policy 6 per 60 s here)', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ env: { UTILITY_API_RATE_LIMIT: '6/60' } });
    });
    after(async () => server.close());

    it('counts every token of a user without a limit of its own in the user’s one count', async () => {
      const { secret } = await server.userWithToken(['Cryptography::Encrypt', 'Tokens::Create']);
      const minted: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await server.send('POST', '/api/token/create', {
          token: secret,
          json: { permissions: ['Cryptography::Encrypt'] },
        });
        expect(created.status).to.equal(201);
        minted.push(((await created.json()) as { token: string }).token);
      }
      // Three requests spent minting; three more pass, whichever token asks, and the next is refused.
      for (const token of minted)
        expect(standing(await server.get('/api/crypto/enc?data=x', auth(token)))[0]).to.be.below(3);
      for (const token of [...minted, secret])
        await expectError(await server.get('/api/crypto/enc?data=x', auth(token)), 429, 25);
      // Another user is not held up by it.
      expect(
        (await server.get('/api/crypto/enc?data=x', auth(await server.tokenFor(['Cryptography::Encrypt'])))).status,
      ).to.equal(200);
    });
  });

  describe('a limit of its own, set at creation', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ env: { UTILITY_API_RATE_LIMIT: '100/60' } });
    });
    after(async () => server.close());

    it('is kept, shown by token/info, counted under its own policy, and passed on to the tokens it issues', async () => {
      const admin = await server.userWithToken(['*']);
      const created = await server.send('POST', '/api/token/create', {
        token: admin.secret,
        json: { rateLimit: { requests: 2, perSeconds: 30 } },
      });
      expect(created.status).to.equal(201);
      const { token, id, rateLimit } = (await created.json()) as { token: string; id: string; rateLimit: unknown };
      expect(rateLimit).to.deep.equal({ requests: 2, perSeconds: 30 });
      const info = (await (await server.send('GET', `/api/token/info?id=${id}`, { token: admin.secret })).json()) as {
        rateLimit: unknown;
      };
      expect(info.rateLimit).to.deep.equal({ requests: 2, perSeconds: 30 });
      const own = (await (await server.send('GET', '/api/token/info', { token: admin.secret })).json()) as {
        rateLimit: unknown;
      };
      expect(own.rateLimit).to.equal(null);

      const issued = await server.send('POST', '/api/token/create', { token, json: { name: 'child' } });
      expect(issued.headers.get('ratelimit-policy')).to.equal('"token";q=2;w=30');
      expect(((await issued.json()) as { rateLimit: unknown }).rateLimit).to.deep.equal({
        requests: 2,
        perSeconds: 30,
      });
      expect(standing(await server.send('GET', '/api/token/info', { token }))[0]).to.equal(0);
      await expectError(await server.send('POST', '/api/token/create', { token, json: {} }), 429, 25);
    });

    it('is never above the issuer’s own: a larger window’s worth or a faster rate is refused with 400/11, and nothing is stored', async () => {
      const admin = await server.userWithToken(['*']);
      const before = await server.snapshot();
      for (const rateLimit of [
        { requests: 101, perSeconds: 60 },
        { requests: 100, perSeconds: 59 },
        { requests: 2, perSeconds: 1 },
      ]) {
        const body = await expectError(
          await server.send('POST', '/api/token/create', { token: admin.secret, json: { rateLimit } }),
          400,
          11,
        );
        expect(body.details).to.equal('rateLimit may not exceed your own, 100 requests per 60 s');
      }
      for (const rateLimit of [
        { requests: 0, perSeconds: 10 },
        { requests: 10 },
        { requests: 10, perSeconds: 10, burst: 1 },
        { requests: 1.5, perSeconds: 10 },
        '10/10',
      ]) {
        const body = await expectError(
          await server.send('POST', '/api/token/create', { token: admin.secret, json: { rateLimit } }),
          400,
          11,
        );
        expect(body.details).to.match(/^rateLimit must be \{requests: 1 to 1000000000, perSeconds: 1 to 86400\}/);
      }
      expect(await server.snapshot()).to.deep.equal(before);
      const slower = await server.send('POST', '/api/token/create', {
        token: admin.secret,
        json: { rateLimit: { requests: 100, perSeconds: 120 } },
      });
      expect(slower.status).to.equal(201);
    });
  });

  describe('with the default policy off', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ env: { UTILITY_API_RATE_LIMIT: 'off' } });
    });
    after(async () => server.close());

    it('counts no token without a limit of its own, and still holds a token to the limit it was given', async () => {
      const free = await server.tokenFor(['Cryptography::Encrypt']);
      for (let i = 0; i < 20; i++) {
        const response = await server.get('/api/crypto/enc?data=x', auth(free));
        expect(response.status).to.equal(200);
        expect(response.headers.get('ratelimit-policy')).to.equal(null);
      }
      const limited = await server.tokenFor(['Cryptography::Encrypt'], { rateLimit: { requests: 1, perSeconds: 60 } });
      expect((await server.get('/api/crypto/enc?data=x', auth(limited))).headers.get('ratelimit-policy')).to.equal(
        '"token";q=1;w=60',
      );
      await expectError(await server.get('/api/crypto/enc?data=x', auth(limited)), 429, 25);
    });
  });

  describe('with Redis down from the start', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({
        env: { UTILITY_API_RATE_LIMIT: '2/60', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` },
      });
    });
    after(async () => server.close());

    it('counts in the instance’s memory, fails no request, and says so in its readiness', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt']);
      expect((await server.get('/api/crypto/enc?data=x', auth(token))).status).to.equal(200);
      expect((await server.get('/api/crypto/enc?data=x', auth(token))).status).to.equal(200);
      await expectError(await server.get('/api/crypto/enc?data=x', auth(token)), 429, 25);
      const ready = await server.get('/readyz');
      expect(ready.status).to.equal(200);
      const health = (await ready.json()) as Health;
      expect(health.status).to.equal('warn');
      expect(health.checks!['redis:responseTime']![0]).to.include({ status: 'warn' });
      expect(health.checks!['redis:responseTime']![0]!.output).to.include(
        'counted per instance until it answers again',
      );
    });
  });

  (REDIS_URL ? describe : describe.skip)('two instances on one database and one Redis', () => {
    let database: TestDatabase;
    const servers: TestServer[] = [];
    const keyPrefix = testKeyPrefix();
    before(async () => {
      database = await freshSqlite();
      for (let i = 0; i < 2; i++)
        servers.push(
          await startServer({
            env: {
              ...database.env,
              UTILITY_API_RATE_LIMIT: '10/60',
              REDIS_URL: REDIS_URL!,
              UTILITY_API_REDIS_KEY_PREFIX: keyPrefix,
            },
          }),
        );
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.close()));
      await database.drop();
      await deleteKeys(REDIS_URL!, keyPrefix);
    });

    it('hold a token to its limit together: of 30 requests spread over both, exactly 10 pass', async () => {
      const token = await servers[0]!.tokenFor(['Cryptography::Encrypt']);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push((await servers[i % 2]!.get('/api/crypto/enc?data=x', auth(token))).status);
      expect(statuses.filter((status) => status === 200)).to.have.length(10);
      expect(statuses.filter((status) => status === 429)).to.have.length(20);
      expect((await readiness(servers[1]!)).checks!['redis:responseTime']![0]!.status).to.equal('pass');
    });
  });

  (REDIS_URL ? describe : describe.skip)('when Redis hangs with its connection open', () => {
    /**
     * Long, so that a request that waits for Redis cannot be mistaken for one that does not: ten
     * requests counted in memory take a few milliseconds each, even on a loaded machine.
     */
    const COMMAND_TIMEOUT_MS = 3_000;
    const keyPrefix = testKeyPrefix();
    let proxy: TcpProxy;
    let server: TestServer;
    before(async () => {
      const target = new URL(REDIS_URL!);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
      server = await startServer({
        env: {
          UTILITY_API_RATE_LIMIT: '100/60',
          REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
          UTILITY_API_REDIS_KEY_PREFIX: keyPrefix,
        },
        overrides: { redis: { commandTimeoutMs: COMMAND_TIMEOUT_MS } },
      });
    });
    after(async () => {
      proxy.set('pass');
      await server.close();
      await proxy.close();
      await deleteKeys(REDIS_URL!, keyPrefix);
    });

    it('costs the first request its deadline, then counts in memory at once until Redis answers again', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt']);
      expect(standing(await server.get('/api/crypto/enc?data=x', auth(token)))[0]).to.equal(99);
      proxy.set('hang');
      expect((await server.get('/api/crypto/enc?data=x', auth(token))).status).to.equal(200);
      // Not one of ten more requests waits for Redis: all ten are answered before one command deadline.
      const tenMore = async () => {
        for (let i = 0; i < 10; i++)
          expect((await server.get('/api/crypto/enc?data=x', auth(token))).status).to.equal(200);
      };
      await settlesWithin(tenMore(), 'ten requests while Redis hangs, none waiting for it', COMMAND_TIMEOUT_MS);
      expect((await readiness(server)).status).to.equal('warn');

      proxy.set('pass');
      await eventually(async () => expect((await readiness(server)).status).to.equal('pass'));
      // Counted in Redis again, where the count went on from the one request it had seen.
      expect(standing(await server.get('/api/crypto/enc?data=x', auth(token)))[0]).to.be.below(99);
    });
  });

  (HAS_REDIS_SERVER ? describe : describe.skip)('when Redis goes away and comes back', () => {
    let redis: ThrowawayRedis;
    let server: TestServer;
    before(async () => {
      redis = await ThrowawayRedis.start();
      server = await startServer({ env: { UTILITY_API_RATE_LIMIT: '100/60', REDIS_URL: redis.url } });
    });
    after(async () => {
      await server.close();
      await redis.stop();
    });

    it('serves every request throughout, readiness warning while it is gone and passing once it is back', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt']);
      expect((await readiness(server)).status).to.equal('pass');
      expect((await server.get('/api/crypto/enc?data=x', auth(token))).status).to.equal(200);
      await redis.stop();
      for (let i = 0; i < 5; i++)
        expect((await server.get('/api/crypto/enc?data=x', auth(token))).status).to.equal(200);
      expect((await readiness(server)).status).to.equal('warn');
      await redis.start();
      const deadline = Date.now() + 5_000;
      while ((await readiness(server)).status !== 'pass') {
        expect(Date.now(), 'readiness did not pass again within 5 s').to.be.below(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Counted in Redis again: the count starts afresh there.
      expect(standing(await server.get('/api/crypto/enc?data=x', auth(token)))[0]).to.equal(99);
    });
  });
});
