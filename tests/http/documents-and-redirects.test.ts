import { expect } from 'chai';
import { request } from 'node:http';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/** The headers of every answer a browser could show as a document, other than the docs page. */
const INERT = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** What Node's own client makes of a GET: its status and Location, or the error it fails with. */
function nodeGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status?: number; location?: string; error?: string }> {
  return new Promise((resolve) => {
    const outgoing = request(url, { headers, agent: false }, (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolve({ status: incoming.statusCode, location: incoming.headers.location }));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    outgoing.end();
  });
}

describe('http: documents say they are inert, and redirects fit in a header', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_STORAGE: 'memory' } });
    token = await server.tokenFor(['*']);
  });
  after(async () => server?.close());

  it('serves /docs with nosniff and a policy that allows its own files only and no framing', async () => {
    for (const path of ['/docs', '/docs/', '/docs/start.js', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('x-content-type-options'), path).to.equal('nosniff');
      const policy = response.headers.get('content-security-policy')!;
      expect(policy, path)
        .to.include("default-src 'none'")
        .and.to.include("script-src 'self'")
        .and.to.include("frame-ancestors 'none'");
      expect(policy, path).not.to.match(/unsafe-inline|unsafe-eval|https?:|\*/);
    }
  });

  it('sends nosniff and a policy that loads nothing with the change log, XML answers, SVG answers and redirects', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const answers = {
      changelog: await fetch(`${server.baseUrl}/api/changelog`),
      svg: await server.get('/api/barcode/gen/qrcode?content=hello&format=svg', auth),
      redirect: await server.get('/api/crypt/enc?data=hello', { ...auth, Accept: 'text/html' }),
    };
    expect(answers.svg.status).to.equal(200);
    expect(answers.redirect.status).to.equal(308);
    expect(answers.redirect.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    for (const [what, response] of Object.entries(answers)) {
      expect(
        {
          'x-content-type-options': response.headers.get('x-content-type-options'),
          'content-security-policy': response.headers.get('content-security-policy'),
        },
        what,
      ).to.deep.equal(INERT);
    }
    // JSON is never shown as a document: it carries none of it.
    const json = await server.get('/api/crypto/enc?data=hello', auth);
    expect(json.headers.get('content-security-policy')).to.equal(null);
  });

  it('answers a redirect whose Location would exceed 8 KB with 414 code 7, where Node’s own client could not read it', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const longQuery = `data=${'a'.repeat(31 * 1024)}`;
    const refused = await server.get(`/api/crypt/enc?${longQuery}`, auth);
    expect(refused.headers.get('location')).to.equal(null);
    const body = await expectError(refused, 414, 7);
    expect(body).to.deep.include({ message: 'Query too long to redirect' });
    expect(body.details).to.include('/api/crypto/enc');
    expect(await nodeGet(`${server.baseUrl}/api/crypt/enc?${longQuery}`, auth)).to.deep.equal({
      status: 414,
      location: undefined,
    });
    // Up to the limit it still redirects, query kept.
    const fits = `data=${'a'.repeat(8_192 - '/api/crypto/enc?data='.length)}`;
    expect(await nodeGet(`${server.baseUrl}/api/crypt/enc?${fits}`, auth)).to.deep.equal({
      status: 308,
      location: `/api/crypto/enc?${fits}`,
    });
    expect((await nodeGet(`${server.baseUrl}/api/crypt/enc?${fits}a`, auth)).status).to.equal(414);
  });
});
