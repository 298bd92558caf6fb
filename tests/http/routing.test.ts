import { expect } from 'chai';
import { expectError, rawRequest, serverForSuite, startServer, type TestServer } from '../support/http-server.js';

/** A generated request id: the process's random prefix, a dash, a base-36 counter. */
const REQUEST_ID = /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/;

describe('http: routing, request ids, oversized requests and junk', () => {
  const suite = serverForSuite();
  let server: TestServer;
  let token: string;
  before(async () => {
    server = suite.server;
    token = await server.tokenFor(['*']);
  });

  it('answers an unknown path with JSON 404/22', async () => {
    const body = await expectError(await server.get('/api/nope', { Authorization: `Bearer ${token}` }), 404, 22);
    expect(body.details).to.equal('No endpoint GET /api/nope');
    await expectError(await server.get('/home'), 404, 22);
  });

  it('answers a known path with another method with JSON 405/28 and an Allow header', async () => {
    const response = await server.send('POST', '/api/crypto/enc?data=x', { token });
    expect(response.headers.get('allow')).to.equal('HEAD, GET');
    await expectError(response, 405, 28);
  });

  it('finds a route under its exact path and under the variants the router accepts: trailing slash, other case, HEAD', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    for (const path of ['/api/crypto/enc?data=x', '/api/crypto/enc/?data=x', '/API/Crypto/ENC?data=x']) {
      const response = await server.get(path, auth);
      expect(response.status, path).to.equal(200);
      expect(await response.text(), path).to.match(/^[A-Za-z0-9_-]+$/);
    }
    const head = await server.send('HEAD', '/api/crypto/enc?data=x', { token });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
  });

  it('gives a JSON answer its length in bytes, letters beyond ASCII included, and HEAD the same headers without a body', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const path = '/api/location/coords?address=S%C3%A3o%20Paulo&limit=1';
    const response = await server.get(path, auth);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).to.equal(String(bytes.length));
    expect((JSON.parse(bytes.toString('utf8')) as { address: string }).address).to.equal('São Paulo');
    const head = await server.send('HEAD', path, { token });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).to.equal(String(bytes.length));
    expect((await head.arrayBuffer()).byteLength).to.equal(0);
  });

  it('gives every response a request id, keeping a sane one the client sent', async () => {
    const generated = await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${token}` });
    const following = await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${token}` });
    expect(generated.headers.get('x-request-id')).to.match(REQUEST_ID);
    expect(following.headers.get('x-request-id'))
      .to.match(REQUEST_ID)
      .and.not.to.equal(generated.headers.get('x-request-id'));
    const kept = await server.get('/api/nope', { 'X-Request-Id': 'trace-42' });
    expect(kept.headers.get('x-request-id')).to.equal('trace-42');
    const replaced = await server.get('/api/nope', { 'X-Request-Id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).to.match(REQUEST_ID);
  });

  it('answers a request line beyond the server limit with the JSON error object, not a bare reply', async () => {
    const limit = server.app.config.http.maxHeaderBytes;
    const response = await rawRequest(
      server.port,
      `GET /api/crypto/enc?data=${'a'.repeat(limit + 10)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(response.status).to.equal(431);
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(JSON.parse(response.body)).to.deep.include({ code: 27, message: 'Request line or headers too large' });
  });

  it('answers headers beyond the server limit the same way', async () => {
    const limit = server.app.config.http.maxHeaderBytes;
    const response = await rawRequest(
      server.port,
      `GET /api/crypto/enc?data=x HTTP/1.1\r\nHost: x\r\nX-Junk: ${'j'.repeat(limit)}\r\n\r\n`,
    );
    expect(response.status).to.equal(431);
    expect(JSON.parse(response.body)).to.deep.include({ code: 27 });
  });

  it('answers malformed HTTP with a JSON 400 and keeps serving', async () => {
    const response = await rawRequest(server.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(response.status).to.equal(400);
    expect(JSON.parse(response.body)).to.deep.include({ code: 9 });
    expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${token}` })).status).to.equal(200);
  });

  it('refuses a cut-off UTF-8 escape by name, and reads a % that escapes nothing as itself, never with a 500', async () => {
    const headers = { Authorization: `Bearer ${token}` };
    const cutOff = await expectError(await server.get('/api/crypto/enc?data=%E0%A4%A', headers), 400, 7);
    expect(cutOff.details).to.equal('data must be percent-encoded UTF-8');
    const literal = await server.get('/api/crypto/enc?data=100%25%20and%20%ZZ', headers);
    expect(literal.status).to.equal(200);
    const roundTrip = await server.get(`/api/crypto/dec?data=${await literal.text()}`, headers);
    expect(await roundTrip.text()).to.equal('100% and %ZZ');
    const dec = await server.get('/api/crypto/dec?data=%ZZ', { Authorization: `Bearer ${token}` });
    await expectError(dec, 400, 13);
  });

  /** Deterministic pseudo-random junk, so a failure can be replayed. */
  function junk(seed: number, length: number): string {
    let state = seed;
    let out = '';
    for (let i = 0; i < length; i++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      out += String.fromCharCode(33 + (state % 94));
    }
    return out;
  }

  it('answers 300 junk query strings, paths and tokens with a catalogue error or a success, never 500', async () => {
    const statuses = new Set<number>();
    for (let seed = 1; seed <= 100; seed++) {
      const text = junk(seed, 1 + (seed % 60));
      const attempts = [
        server.get(`/api/crypto/dec?data=${encodeURIComponent(text)}`, { Authorization: `Bearer ${token}` }),
        server.get(`/api/crypto/${encodeURIComponent(text)}?${encodeURIComponent(text)}=1`, {
          Authorization: `Bearer ${token}`,
        }),
        server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${text.replace(/\s/g, '')}` }),
      ];
      for (const response of await Promise.all(attempts)) {
        statuses.add(response.status);
        expect(response.status, text).to.be.below(500);
        if (response.status >= 400) {
          const body = (await response.json()) as { code: number; message: string };
          expect(body.code, text).to.be.a('number');
          expect(body.message, text).to.be.a('string');
        } else {
          await response.text();
        }
      }
    }
    expect([...statuses].sort()).to.include.members([400, 401, 404]);
  });
});

describe('http: the OpenAPI description', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('describes every route of the table, with its permission and parameters, without a token', async () => {
    const response = await server.get('/api/openapi.json');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          { 'x-permission'?: string; parameters?: { name: string; required: boolean }[]; deprecated?: boolean }
        >
      >;
    };
    expect(document.openapi).to.equal('3.1.0');
    expect(document.paths['/api/crypto/enc']!.get!['x-permission']).to.equal('Cryptography::Encrypt');
    expect(document.paths['/api/crypto/dec']!.get!['x-permission']).to.equal('Cryptography::Decrypt');
    expect(document.paths['/api/crypto/enc']!.get!.parameters).to.deep.include({
      name: 'data',
      in: 'query',
      required: true,
      description: 'the text to encrypt (text of at most 8192 UTF-8 bytes)',
      schema: { type: 'string', maxLength: 8192 },
      example: 'hello',
    });
    expect(document.paths['/api/crypt/decr']!.get!.deprecated).to.equal(true);
  });
});

describe('http: the OpenAPI description of management endpoints', () => {
  it('includes the x-uid header and the JSON body with its required fields', async () => {
    const server = await startServer();
    try {
      const document = (await (await server.get('/api/openapi.json')).json()) as {
        paths: Record<
          string,
          Record<
            string,
            {
              parameters: { name: string; in: string }[];
              requestBody?: {
                content: { 'application/json': { schema: { required: string[]; additionalProperties: boolean } } };
              };
            }
          >
        >;
      };
      expect(document.paths['/api/user/get']!.get!.parameters).to.deep.include({
        name: 'x-uid',
        in: 'header',
        required: false,
        description: 'the uid of the user acted on; default: your own (a user uid)',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      });
      const create = document.paths['/api/user/create']!.post!.requestBody!.content['application/json'].schema;
      expect(create.required).to.deep.equal(['firstname', 'lastname', 'email', 'password']);
      expect(create.additionalProperties).to.equal(false);
    } finally {
      await server.close();
    }
  });
});
