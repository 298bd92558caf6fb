import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { expectError, httpBackends, serverForSuite, startServer, type TestServer } from '../support/http-server.js';

const URL_SAFE = /^[A-Za-z0-9_-]+$/;
const q = (data: string) => encodeURIComponent(data);

for (const backend of httpBackends) {
  describe(`http: crypto endpoints (${backend.name})`, () => {
    const suite = serverForSuite(backend);
    let server: TestServer;
    let token: string;
    const auth = () => ({ Authorization: `Bearer ${token}` });
    const enc = (query: string) => server.get(`/api/crypto/enc?${query}`, auth());
    const dec = (query: string) => server.get(`/api/crypto/dec?${query}`, auth());

    before(async () => {
      server = suite.server;
      token = await server.tokenFor(['Cryptography::*']);
    });

    it('encrypts into URL-safe text/plain and decrypts back, emoji included', async () => {
      for (const text of ['hello', 'héllo wörld 👩‍💻🔐', ' spaces & symbols ?=/+ ', '']) {
        const encrypted = await enc(`data=${q(text)}`);
        expect(encrypted.status).to.equal(200);
        expect(encrypted.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
        const ciphertext = await encrypted.text();
        expect(ciphertext).to.match(URL_SAFE);
        const decrypted = await dec(`data=${ciphertext}`);
        expect(decrypted.status).to.equal(200);
        expect(decrypted.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
        expect(await decrypted.text()).to.equal(text);
      }
    });

    it('encrypts the same text differently each call', async () => {
      const [a, b] = await Promise.all([enc('data=same'), enc('data=same')]);
      expect(await a.text()).not.to.equal(await b.text());
    });

    it('answers 400/6 when data is missing', async () => {
      await expectError(await enc(''), 400, 6);
      await expectError(await dec(''), 400, 6);
      // A parameter it does not take is refused by name first, never ignored.
      expect((await expectError(await dec('other=1'), 400, 7)).details).to.equal(
        'Unknown query parameter(s): other (this endpoint takes data)',
      );
    });

    it('answers 400/7 when data is repeated', async () => {
      await expectError(await enc('data=a&data=b'), 400, 7);
      await expectError(await dec('data=a&data=b'), 400, 7);
    });

    it('accepts exactly 8 KiB of UTF-8 and answers 400/7 beyond it', async () => {
      const max = 'é'.repeat(4096);
      const ok = await enc(`data=${q(max)}`);
      expect(ok.status).to.equal(200);
      const ciphertext = await ok.text();
      expect(await (await dec(`data=${ciphertext}`)).text()).to.equal(max);
      const body = await expectError(await enc(`data=${q(max + 'x')}`), 400, 7);
      expect(body.details).to.include('8192');
      await expectError(await dec(`data=${ciphertext}AAAA`), 400, 7);
    });

    it('answers 400/13 for tampered, truncated, foreign and garbage ciphertext', async () => {
      const ciphertext = await (await enc('data=secret')).text();
      const tampered = ciphertext.slice(0, 30) + (ciphertext[30] === 'A' ? 'B' : 'A') + ciphertext.slice(31);
      const other = await startServer();
      const foreignToken = await other.tokenFor(['Cryptography::Encrypt']);
      const foreign = await (
        await other.get('/api/crypto/enc?data=secret', { Authorization: `Bearer ${foreignToken}` })
      ).text();
      await other.close();
      for (const bad of [tampered, ciphertext.slice(0, -3), foreign, 'garbage', q('ÿ not base64 +/='), '']) {
        await expectError(await dec(`data=${bad}`), 400, 13);
      }
    });

    it('redirects the renamed legacy paths with 308, keeping the query string', async () => {
      const encrypted = await server.get('/api/crypt/enc?data=a%20b&x=1', auth());
      expect(encrypted.status).to.equal(308);
      expect(encrypted.headers.get('location')).to.equal('/api/crypto/enc?data=a%20b&x=1');
      const decrypted = await server.get('/api/crypt/decr?data=abc', auth());
      expect(decrypted.status).to.equal(308);
      expect(decrypted.headers.get('location')).to.equal('/api/crypto/dec?data=abc');
    });

    it('a client that follows the legacy redirect gets the answer', async () => {
      const response = await fetch(`${server.baseUrl}/api/crypt/enc?data=hello`, { headers: auth() });
      expect(response.status).to.equal(200);
      expect(await response.text()).to.match(URL_SAFE);
    });
  });
}

describe('http: key rotation', () => {
  it('decrypts with an older key listed after rotation, and refuses once it is dropped', async () => {
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const before = await startServer({ overrides: { encryption: { key: oldKey } } });
    const ciphertext = await (
      await before.get('/api/crypto/enc?data=kept', { Authorization: `Bearer ${await before.tokenFor(['*'])}` })
    ).text();
    await before.close();

    const rotated = await startServer({ overrides: { encryption: { key: newKey, previousKeys: [oldKey] } } });
    const rotatedToken = await rotated.tokenFor(['*']);
    const response = await rotated.get(`/api/crypto/dec?data=${ciphertext}`, {
      Authorization: `Bearer ${rotatedToken}`,
    });
    expect(response.status).to.equal(200);
    expect(await response.text()).to.equal('kept');
    await rotated.close();

    const dropped = await startServer({ overrides: { encryption: { key: newKey } } });
    const droppedResponse = await dropped.get(`/api/crypto/dec?data=${ciphertext}`, {
      Authorization: `Bearer ${await dropped.tokenFor(['*'])}`,
    });
    await expectError(droppedResponse, 400, 13);
    await dropped.close();
  });
});
