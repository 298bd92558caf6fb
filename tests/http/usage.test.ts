import { expect } from 'chai';
import { eventually } from '../support/eventually.js';
import { expectError, httpBackends, serverForSuite, type TestServer } from '../support/http-server.js';
import { usageOf } from '../support/usage.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Counts are written this often here, so that a test sees them soon without waiting for the default. */
const FLUSH_MS = 100;
const ENC = 'GET /api/crypto/enc';

const tokenIdOf = async (server: TestServer, secret: string): Promise<string> =>
  ((await (await server.send('GET', '/api/token/info', { token: secret })).json()) as { id: string }).id;

/** `ok` answered requests and `refused` refused ones (400: no data) to the encryption endpoint. */
async function encrypt(server: TestServer, secret: string, ok: number, refused = 0): Promise<void> {
  for (let i = 0; i < ok; i++)
    expect((await server.send('GET', '/api/crypto/enc?data=x', { token: secret })).status).to.equal(200);
  for (let i = 0; i < refused; i++)
    expect((await server.send('GET', '/api/crypto/enc', { token: secret })).status).to.equal(400);
}

for (const backend of httpBackends) {
  describe(`http: usage history (${backend.name})`, () => {
    const suite = serverForSuite(backend, { overrides: { usage: { flushIntervalMs: FLUSH_MS } } });
    let server: TestServer;
    /** Reads anyone's usage; its own requests are counted on its own token, never on those it reads. */
    let admin: string;
    before(async () => {
      server = suite.server;
      admin = await server.tokenFor(['Tokens::Read', 'Users::Read']);
    });

    it('counts a token’s requests by operation and by status class, written within the flush interval', async () => {
      const user = await server.userWithToken(['Cryptography::Encrypt']);
      const id = await tokenIdOf(server, user.secret);
      await encrypt(server, user.secret, 3, 2);
      const byOperation = await eventually(async () => {
        const usage = await usageOf(server, `/api/token/usage?id=${id}&group=operation`, admin);
        expect(usage.total).to.equal(6);
        return usage;
      });
      const hour = new Date(Math.floor(Date.parse(byOperation.series[0]!.at) / HOUR_MS) * HOUR_MS).toISOString();
      expect(byOperation.by).to.equal('hour');
      // The last 24 hours by default, as whole hours: the current one included.
      expect(Date.parse(byOperation.to) - Date.parse(byOperation.from)).to.equal(25 * HOUR_MS);
      expect(byOperation.series.map(({ at }) => at)).to.deep.equal([hour, hour]);
      expect(byOperation.series).to.deep.equal([
        { at: hour, operation: ENC, count: 5 },
        { at: hour, operation: 'GET /api/token/info', count: 1 },
      ]);
      const byStatus = await usageOf(server, `/api/token/usage?id=${id}&group=status`, admin);
      expect(byStatus.series).to.deep.equal([
        { at: hour, status: '2xx', count: 4 },
        { at: hour, status: '4xx', count: 2 },
      ]);
      const byDay = await usageOf(server, `/api/token/usage?id=${id}&by=day`, admin);
      const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS).toISOString();
      expect(byDay).to.include({ by: 'day', total: 6 });
      expect(byDay.series).to.deep.equal([{ at: today, count: 6 }]);
      expect(Date.parse(byDay.to) - Date.parse(byDay.from)).to.equal(31 * DAY_MS);
    });

    it('answers the calling token by default and any token of your own; the range asked, as whole hours', async () => {
      const user = await server.userWithToken(['Cryptography::Encrypt', 'Tokens::Create']);
      const created = await server.send('POST', '/api/token/create', { token: user.secret, json: { name: 'second' } });
      const second = (await created.json()) as { token: string; id: string };
      await encrypt(server, second.token, 2);
      const from = new Date(Date.now() - 2 * HOUR_MS).toISOString();
      const to = new Date(Date.now() + HOUR_MS).toISOString();
      const own = await eventually(async () => {
        const usage = await usageOf(server, `/api/token/usage?id=${second.id}&from=${from}&to=${to}`, user.secret);
        expect(usage.total).to.equal(2);
        return usage;
      });
      expect(own.from).to.equal(new Date(Math.floor(Date.parse(from) / HOUR_MS) * HOUR_MS).toISOString());
      expect(own.to).to.equal(new Date(Math.ceil(Date.parse(to) / HOUR_MS) * HOUR_MS).toISOString());
      // The calling token's: its own token/create and the first usage read so far.
      await eventually(async () => expect((await usageOf(server, '/api/token/usage', second.token)).total).to.equal(2));
      const calling = await usageOf(server, '/api/token/usage?group=operation', user.secret);
      expect(calling.series.map(({ operation }) => operation)).to.include('POST /api/token/create');
    });

    it('sums a user’s tokens, deleted ones included; others’ with Users::Read only', async () => {
      const user = await server.userWithToken(['Cryptography::Encrypt', 'Tokens::Create', 'Tokens::Delete']);
      const created = await server.send('POST', '/api/token/create', { token: user.secret, json: {} });
      const second = (await created.json()) as { token: string; id: string };
      await encrypt(server, second.token, 4);
      await encrypt(server, user.secret, 1);
      expect(
        (await server.send('DELETE', `/api/token/delete?id=${second.id}`, { token: user.secret })).status,
      ).to.equal(200);
      const expected = 4 + 1 + 2; // the encryptions, token/create and token/delete
      await eventually(async () =>
        expect((await usageOf(server, '/api/user/usage', admin, { 'x-uid': user.uid })).total).to.equal(expected),
      );
      const own = await usageOf(server, '/api/user/usage?group=status', user.secret);
      expect(own.series.map(({ status }) => status)).to.deep.equal(['2xx']);
      expect(own.total).to.be.at.least(expected);
      const other = await server.userWithToken([]);
      await expectError(
        await server.send('GET', '/api/user/usage', { token: other.secret, headers: { 'x-uid': user.uid } }),
        403,
        1,
      );
      await expectError(
        await server.send('GET', '/api/user/usage', { token: admin, headers: { 'x-uid': 'nobody-here' } }),
        404,
        14,
      );
    });

    it('answers another user’s token, and one that does not exist, as not found without Tokens::Read', async () => {
      const owner = await server.userWithToken(['Cryptography::Encrypt']);
      const id = await tokenIdOf(server, owner.secret);
      const stranger = await server.tokenFor(['Tokens::Create', 'Users::Read']);
      await expectError(await server.send('GET', `/api/token/usage?id=${id}`, { token: stranger }), 404, 18);
      await expectError(
        await server.send('GET', '/api/token/usage?id=00000000-0000-4000-8000-000000000000', { token: admin }),
        404,
        18,
      );
      expect((await server.send('GET', `/api/token/usage?id=${id}`, { token: admin })).status).to.equal(200);
    });

    it('refuses every malformed parameter (400 code 7), a malformed x-uid, and one where no user is named (400 code 9)', async () => {
      const secret = await server.tokenFor([]);
      const refused = [
        'from=2026-11-27&to=2026-11-26',
        'from=2026-10-01&to=2026-11-26',
        'from=2026-10-26T00:00:00Z&to=2026-11-26T01:00:00Z&by=hour',
        'from=2025-01-01&to=2026-11-26&by=day',
        'by=week',
        'by=',
        'group=token',
        'group=operation&group=status',
        'from=yesterday',
        'from=2026-02-30',
        'to=2026-11-26T13:00:00',
        'to=1764162000000',
        'id=not-a-token-id',
        'limit=10',
      ];
      for (const query of refused) {
        await expectError(await server.send('GET', `/api/token/usage?${query}`, { token: secret }), 400, 7);
        if (!query.startsWith('id='))
          await expectError(await server.send('GET', `/api/user/usage?${query}`, { token: secret }), 400, 7);
      }
      await expectError(
        await server.send('GET', '/api/token/usage', { token: secret, headers: { 'x-uid': 'someone' } }),
        400,
        9,
      );
      await expectError(
        await server.send('GET', '/api/user/usage', { token: secret, headers: { 'x-uid': 'not a uid!' } }),
        400,
        9,
      );
      // The longest spans allowed are answered.
      for (const query of ['from=2026-10-26&to=2026-11-26', 'from=2025-11-26&to=2026-11-27&by=day&group=status']) {
        expect((await server.send('GET', `/api/token/usage?${query}`, { token: secret })).status, query).to.equal(200);
      }
    });
  });
}
