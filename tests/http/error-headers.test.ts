import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { expectError, rawRequest, serverForSuite, type TestServer } from '../support/http-server.js';

const BEARER = 'Bearer realm="utility-api"';
const BEARER_OR_BASIC = 'Bearer realm="utility-api", Basic realm="utility-api", charset="UTF-8"';
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** The headers an error answer may carry, each only where it applies. */
const ERROR_HEADERS = ['www-authenticate', 'allow', 'retry-after'] as const;
const errorHeadersOf = (response: Response) =>
  Object.fromEntries(
    ERROR_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : [])),
  );

describe('http: error answers carry the headers a client acts on', () => {
  const suite = serverForSuite();
  let server: TestServer;
  before(() => {
    server = suite.server;
  });

  it('answers 401 with WWW-Authenticate: Bearer on a route that takes only a token', async () => {
    const missing = await server.get('/api/crypto/enc?data=x');
    await expectError(missing, 401, 3);
    expect(errorHeadersOf(missing)).to.deep.equal({ 'www-authenticate': BEARER });
    const invalid = await server.get('/api/crypto/enc?data=x', { Authorization: 'Bearer not-a-token' });
    await expectError(invalid, 401, 4);
    expect(errorHeadersOf(invalid)).to.deep.equal({ 'www-authenticate': BEARER });
    // A password is no key here: the challenge still offers only Bearer.
    const password = await server.get('/api/crypto/enc?data=x', { Authorization: basic('someone', 'secret') });
    await expectError(password, 401, 4);
    expect(errorHeadersOf(password)).to.deep.equal({ 'www-authenticate': BEARER });
    const malformed = await server.get('/api/crypto/enc?data=x', { Authorization: 'Token abc' });
    await expectError(malformed, 401, 4);
    expect(errorHeadersOf(malformed)).to.deep.equal({ 'www-authenticate': BEARER });
  });

  it('answers 401 on token/create, which also takes a password, with WWW-Authenticate offering Bearer and Basic', async () => {
    await server.app.useCases.usersAndTokens.createUser
      .execute({
        actor: OPERATOR,
        username: 'grace',
        email: 'grace@example.com',
        password: 'correct horse battery',
        permissions: [],
      })
      .then(expectRight);
    const attempts: [Record<string, string>, number][] = [
      [{}, 3],
      [{ Authorization: 'Bearer not-a-token' }, 4],
      [{ Authorization: basic('grace', 'wrong horse battery') }, 4],
      [{ Authorization: basic('nobody', 'correct horse battery') }, 4],
    ];
    for (const [headers, code] of attempts) {
      const response = await server.send('POST', '/api/token/create', { headers, json: {} });
      await expectError(response, 401, code);
      expect(errorHeadersOf(response), JSON.stringify(headers)).to.deep.equal({ 'www-authenticate': BEARER_OR_BASIC });
    }
    const right = await server.send('POST', '/api/token/create', {
      headers: { Authorization: basic('grace', 'correct horse battery') },
      json: {},
    });
    expect(right.status).to.equal(201);
    expect(errorHeadersOf(right)).to.deep.equal({});
  });

  it('answers 405 with Allow, from the app and from the server that answers before it', async () => {
    const wrongMethod = await server.send('DELETE', '/api/crypto/enc', {});
    await expectError(wrongMethod, 405, 28);
    expect(errorHeadersOf(wrongMethod)).to.deep.equal({ allow: 'HEAD, GET' });
    const connect = await rawRequest(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(connect.status).to.equal(405);
    expect(connect.headers.allow).to.equal('GET, HEAD, POST, PATCH, DELETE');
    expect(connect.headers).not.to.have.any.keys('www-authenticate', 'retry-after');
  });

  it('adds none of them where they do not apply: 400, 403, 404', async () => {
    const token = await server.tokenFor(['Phone::Details']);
    const forbidden = await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${token}` });
    await expectError(forbidden, 403, 1);
    expect(errorHeadersOf(forbidden)).to.deep.equal({});
    const wildcard = await server.tokenFor(['*']);
    const missingQuery = await server.get('/api/crypto/enc', { Authorization: `Bearer ${wildcard}` });
    await expectError(missingQuery, 400, 6);
    expect(errorHeadersOf(missingQuery)).to.deep.equal({});
    const unknown = await server.get('/api/no/such/thing', { Authorization: `Bearer ${wildcard}` });
    await expectError(unknown, 404, 22);
    expect(errorHeadersOf(unknown)).to.deep.equal({});
  });
});
