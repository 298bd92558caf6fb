import { expect } from 'chai';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

const APP = 'https://app.example.com';
const preflight = (server: TestServer, origin: string, path = '/api/user/update', method = 'PATCH') =>
  server.send('OPTIONS', path, {
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization, content-type, x-uid',
    },
  });
const commaList = (value: string | null): string[] => (value ?? '').split(',').map((name) => name.trim().toLowerCase());

describe('http: CORS', () => {
  describe('with an allowed origin', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({
        env: { UTILITY_API_CORS_ORIGINS: `${APP}, http://localhost:5173`, UTILITY_API_RATE_LIMIT: '1/60' },
      });
    });
    after(async () => server.close());

    it('answers its preflight 204 with the methods and the headers the routes read, for any path', async () => {
      for (const path of ['/api/user/update', '/api/barcode/gen/qrcode', '/metrics']) {
        const response = await preflight(server, APP, path);
        expect(response.status).to.equal(204);
        expect(response.headers.get('access-control-allow-origin')).to.equal(APP);
        expect(commaList(response.headers.get('access-control-allow-methods'))).to.include.members([
          'get',
          'head',
          'post',
          'patch',
          'delete',
        ]);
        expect(commaList(response.headers.get('access-control-allow-headers'))).to.include.members([
          'authorization',
          'content-type',
          'idempotency-key',
          'x-uid',
          'x-format',
          'x-domain',
          'x-request-id',
        ]);
        expect(response.headers.get('access-control-max-age')).to.equal('600');
        expect(response.headers.get('x-request-id')).to.be.a('string');
        expect(response.headers.get('vary')).to.include('Origin');
      }
    });

    it('puts the CORS headers on every answer, successes and errors (401, 404, 429) alike, exposing the rate limit fields and the request id', async () => {
      const token = await server.tokenFor(['Cryptography::Encrypt']);
      const answers = [
        await server.get('/api/crypto/enc?data=x', { Origin: APP, Authorization: `Bearer ${token}` }),
        await server.get('/api/crypto/enc?data=x', { Origin: APP, Authorization: `Bearer ${token}` }),
        await server.get('/api/crypto/enc?data=x', { Origin: APP }),
        await server.get('/api/nowhere', { Origin: APP }),
      ];
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 429, 401, 404]);
      for (const answer of answers) {
        expect(answer.headers.get('access-control-allow-origin')).to.equal(APP);
        expect(commaList(answer.headers.get('access-control-expose-headers'))).to.include.members([
          'ratelimit',
          'ratelimit-policy',
          'retry-after',
          'x-request-id',
        ]);
      }
      await expectError(answers[1]!, 429, 25);
    });

    it('serves another origin as if it had sent none: no CORS headers, and its preflight is no preflight (405)', async () => {
      const other = await server.get('/api/crypto/enc?data=x', { Origin: 'https://evil.example' });
      expect(other.headers.get('access-control-allow-origin')).to.equal(null);
      await expectError(await preflight(server, 'https://evil.example'), 405, 28);
    });
  });

  it('allows no origin by default, and any with "*"', async () => {
    const closed = await startServer();
    try {
      expect(
        (await closed.get('/api/crypto/enc?data=x', { Origin: APP })).headers.get('access-control-allow-origin'),
      ).to.equal(null);
      await expectError(await preflight(closed, APP), 405, 28);
    } finally {
      await closed.close();
    }
    const open = await startServer({ env: { UTILITY_API_CORS_ORIGINS: '*' } });
    try {
      const response = await preflight(open, 'https://anywhere.example');
      expect(response.status).to.equal(204);
      expect(response.headers.get('access-control-allow-origin')).to.equal('*');
    } finally {
      await open.close();
    }
  });
});
