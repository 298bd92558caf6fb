import { connect } from 'node:net';
import { expect } from 'chai';
import { servedPath } from '../../src/platform/http/route-table.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { expectError, httpBackends, rawRequest, serverForSuite, type TestServer } from '../support/http-server.js';

/** Escapes of bytes that are not UTF-8: a stray byte, an overlong `/`, an encoded surrogate, a cut-off sequence. */
const NOT_UTF8 = ['%FF', '%C0%AF', '%ED%A0%80', '%E2%82'];

/** The invisible formatting characters refused beside control characters: one of each range. */
const INVISIBLE = ['\u200B', '\u200F', '\u202A', '\u202E', '\u2066', '\u2069', '\uFEFF'];

const EMOJI = '\u{1F600}';

let emailSequence = 0;
const newPerson = (fields: Record<string, unknown> = {}) => {
  emailSequence += 1;
  return {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: `input${emailSequence}@example.com`,
    password: 'correct horse battery',
    ...fields,
  };
};

/** The whole answer to bytes sent as given, interim responses included. */
function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(request);
  });
}

for (const backend of httpBackends) {
  describe(`http: input is refused, never quietly changed (${backend.name})`, () => {
    const suite = serverForSuite(backend);
    let server: TestServer;
    let admin: string;
    before(async () => {
      server = suite.server;
      admin = await server.tokenFor(['*']);
    });
    const auth = () => ({ Authorization: `Bearer ${admin}` });

    describe('bytes that are not UTF-8, and lone surrogates', () => {
      it('refuses a query value whose escapes are not UTF-8 with 400/7 naming it, instead of encrypting U+FFFD', async () => {
        for (const bad of NOT_UTF8) {
          const body = await expectError(await server.get(`/api/crypto/enc?data=a${bad}b`, auth()), 400, 7);
          expect(body.details, bad).to.equal('data must be percent-encoded UTF-8');
        }
        // The same bytes as valid UTF-8 are text like any other.
        expect((await server.get('/api/crypto/enc?data=%C3%A9%F0%9F%98%80', auth())).status).to.equal(200);
      });

      it('refuses them in a query name, and in a parameter the route does not take', async () => {
        const inName = await expectError(await server.get('/api/crypto/enc?data=x&%FFkey=1', auth()), 400, 7);
        expect(inName.details).to.equal('%FFkey must be percent-encoded UTF-8');
        const unused = await expectError(await server.get('/api/crypto/enc?data=x&other=%C0%AF', auth()), 400, 7);
        expect(unused.details).to.equal('other must be percent-encoded UTF-8');
      });

      it('refuses barcode content that is not UTF-8 (400/7) instead of drawing U+FFFD', async () => {
        const body = await expectError(await server.get('/api/barcode/gen/qrcode?content=%FF%FE', auth()), 400, 7);
        expect(body.details).to.equal('content must be percent-encoded UTF-8');
      });

      it('refuses a place name that is not UTF-8 (400/7), never searching for U+FFFD', async () => {
        const body = await expectError(await server.get('/api/location/coords?address=S%E3o%20Paulo', auth()), 400, 7);
        expect(body.details).to.equal('address must be percent-encoded UTF-8');
      });

      it("refuses a path parameter that is not UTF-8 naming it, with the codes of a query parameter (400/7), the game's of a header (400/9)", async () => {
        for (const bad of NOT_UTF8) {
          const body = await expectError(await server.get(`/api/barcode/gen/qr${bad}?content=x`, auth()), 400, 7);
          expect(body.details, bad).to.equal('codec must be percent-encoded UTF-8');
        }
        const game = await expectError(await server.get('/api/game/network/maps/%ED%A0%80', auth()), 400, 9);
        expect(game.details).to.equal('map must be percent-encoded UTF-8');
      });

      it('still answers a path that matches no route with 404/22', async () => {
        await expectError(await server.get('/api/nope/%FF', auth()), 404, 22);
        await expectError(await server.get('/api/crypto/%FF?data=x', auth()), 404, 22);
      });

      it('refuses raw bytes beyond ASCII in a header a route takes with 400/9 naming it', async () => {
        const request = Buffer.concat([
          Buffer.from(
            `GET /api/barcode/gen/qrcode?content=x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nx-format: `,
          ),
          Buffer.from([0x73, 0x76, 0xc3, 0xa7]),
          Buffer.from('\r\n\r\n'),
        ]);
        const response = await rawRequest(server.port, request);
        expect(response.status).to.equal(400);
        expect(JSON.parse(response.body)).to.deep.include({ code: 9, details: 'x-format must be printable ASCII' });
      });

      it('refuses a JSON body that is not UTF-8 with 400/11 naming the field, and stores nothing', async () => {
        const before = await server.snapshot();
        const json = Buffer.from(JSON.stringify(newPerson({ firstname: 'Zo__' })));
        const at = json.indexOf('Zo__') + 2;
        for (const bytes of [
          [0xff, 0xfe],
          [0xc0, 0xaf],
          [0xed, 0xa0, 0x80],
        ]) {
          const body = Buffer.concat([json.subarray(0, at), Buffer.from(bytes), json.subarray(at + 2)]);
          const response = await server.send('POST', '/api/user/create', {
            token: admin,
            raw: { body, contentType: 'application/json' },
          });
          const error = await expectError(response, 400, 11);
          expect(error.details, String(bytes)).to.equal('firstname is not valid UTF-8');
        }
        const outsideStrings = Buffer.concat([Buffer.from('{"firstname": "Ada"'), Buffer.of(0xff), Buffer.from('}')]);
        const response = await server.send('POST', '/api/user/create', {
          token: admin,
          raw: { body: outsideStrings, contentType: 'application/json' },
        });
        expect((await expectError(response, 400, 11)).details).to.equal('the body is not valid UTF-8');
        expect(await server.snapshot()).to.deep.equal(before);
      });

      it('refuses a JSON body said to be in a charset other than UTF-8 with 400/11, instead of reading it as UTF-8; takes charset=UTF-8', async () => {
        const person = JSON.stringify({
          firstname: 'Zoë',
          lastname: 'Charset',
          email: 'zoe.charset@example.com',
          password: 'correct horse battery',
        });
        const before = await server.snapshot();
        const latin1 = await expectError(
          await server.send('POST', '/api/user/create', {
            token: admin,
            raw: { body: person, contentType: 'application/json; charset=iso-8859-1' },
          }),
          400,
          11,
        );
        expect(latin1.details).to.equal('the body must be UTF-8 JSON (charset=utf-8 or none), not charset=iso-8859-1');
        expect(await server.snapshot()).to.deep.equal(before);
        const utf8 = await server.send('POST', '/api/user/create', {
          token: admin,
          raw: { body: person, contentType: 'application/json; charset=UTF-8' },
        });
        expect(utf8.status).to.equal(201);
      });

      it('refuses a lone surrogate escaped in a JSON value or key, nested anywhere, with 400/11 naming where', async () => {
        const before = await server.snapshot();
        const person = JSON.stringify(newPerson());
        const cases: [string, string][] = [
          [person.replace('"Ada"', '"Ada\\ud800"'), 'firstname holds a lone surrogate'],
          [person.replace('"Lovelace"', '"\\udfffLovelace"'), 'lastname holds a lone surrogate'],
          [person.replace('"Ada"', '"Ada\\ud83d"'), 'firstname holds a lone surrogate'],
          [
            person.replace('}', ',"permissions":["Cryptography::Encrypt","x\\udc00"]}'),
            'permissions[1] holds a lone surrogate',
          ],
          [person.replace('}', ',"\\ud800":1}'), '\\ud800 holds a lone surrogate'],
        ];
        for (const [body, details] of cases) {
          const error = await expectError(
            await server.send('POST', '/api/user/create', {
              token: admin,
              raw: { body, contentType: 'application/json' },
            }),
            400,
            11,
          );
          expect(error.details, body).to.match(new RegExp(`^${details.replace(/[\\[\]]/g, '\\$&')}`));
        }
        // A surrogate pair escaped in JSON is one character, as it should be.
        const paired = await server.send('POST', '/api/user/create', {
          token: admin,
          raw: { body: person.replace('"Ada"', '"Ada \\ud83d\\ude00"'), contentType: 'application/json' },
        });
        expect(paired.status).to.equal(201);
        expect(((await paired.json()) as { fullName: string }).fullName).to.equal(`Ada ${EMOJI} Lovelace`);
        const after = (await server.snapshot()) as { users: unknown[] };
        expect(after.users).to.have.length((before as { users: unknown[] }).users.length + 1);
      });

      it('refuses a lone surrogate deep in a body nested thousands of levels, never with a 500', async () => {
        const depth = 5000;
        const body = `{"name": ${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}}`;
        const error = await expectError(
          await server.send('POST', '/api/token/create', {
            token: admin,
            raw: { body, contentType: 'application/json' },
          }),
          400,
          11,
        );
        expect(error.details).to.match(/^name\[0\]\[0\]/);
        expect(error.details!.length).to.be.below(300);
      });
    });

    describe('query parameters an endpoint does not take', () => {
      it('refuses DELETE /user/delete?user=carol with 400/7 naming user, deleting nobody (?username=carol used to delete the caller; it names carol now)', async () => {
        const victim = await server.userWithToken(['*']);
        const carol = await server.userWithToken([]);
        const before = await server.snapshot();
        const refused = await expectError(
          await server.send('DELETE', `/api/user/delete?user=${carol.username}`, { token: victim.secret }),
          400,
          7,
        );
        expect(refused.details).to.match(/^Unknown query parameter\(s\): user \(/);
        expect(await server.snapshot()).to.deep.equal(before);
      });

      it('refuses an unknown parameter on every route of the table with 400/7 naming it, before anything is done', async () => {
        const table = server.app.routes;
        const before = await server.snapshot();
        for (const route of table.routes) {
          const path = servedPath(route).replace(':codec', 'qrcode').replace(':map', 'hide');
          const operation = `${route.method} ${route.path}`;
          const taken = Object.keys(route.query);
          const refused = await expectError(
            await server.send(route.method, `${path}?nosuchoption=1`, { token: admin }),
            400,
            7,
          );
          expect(refused.details, operation).to.equal(
            `Unknown query parameter(s): nosuchoption (this endpoint takes ${taken.length === 0 ? 'none' : taken.join(', ')})`,
          );
        }
        expect(await server.snapshot()).to.deep.equal(before);
      });

      it('refuses a body where the endpoint takes none with 400/11, deleting nobody: DELETE /user/delete with {"username": "carol"}', async () => {
        const victim = await server.userWithToken(['*']);
        const carol = await server.userWithToken([]);
        const before = await server.snapshot();
        const body = JSON.stringify({ username: carol.username, uid: carol.uid });
        const refused = await expectError(
          await server.send('DELETE', '/api/user/delete', {
            token: victim.secret,
            raw: { body, contentType: 'application/json' },
          }),
          400,
          11,
        );
        expect(refused.details).to.equal('this endpoint takes no body');
        expect(await server.snapshot()).to.deep.equal(before);
      });

      it('refuses one on the endpoints outside the table too: the OpenAPI document, the changelog, /livez and /readyz', async () => {
        for (const path of ['/api/openapi.json', '/api/changelog', '/livez', '/readyz']) {
          const refused = await expectError(await server.get(`${path}?format=yaml`, auth()), 400, 7);
          expect(refused.details, path).to.equal('Unknown query parameter(s): format (this endpoint takes none)');
          expect((await server.get(path, auth())).status, path).to.equal(200);
        }
      });

      it('refuses one beside the parameters a route takes, and names every one, however it is spelt', async () => {
        const token = await server.userWithToken([]);
        const [id] = ((await server.snapshot()) as { tokens: { id: string }[][] }).tokens
          .flat()
          .map((record) => record.id)
          .slice(-1);
        const before = await server.snapshot();
        const deleting = await expectError(
          await server.send('DELETE', `/api/token/delete?id=${id}&uid=${token.uid}`, { token: admin }),
          400,
          7,
        );
        expect(deleting.details).to.equal('Unknown query parameter(s): uid (this endpoint takes id)');
        expect(await server.snapshot()).to.deep.equal(before);
        const several = await expectError(
          await server.get('/api/crypto/enc?data=x&Data=y&__proto__=1&constructor&=z', auth()),
          400,
          7,
        );
        expect(several.details).to.equal(
          'Unknown query parameter(s): Data, __proto__, constructor, (a parameter without a name) (this endpoint takes data)',
        );
        // Refused before a missing parameter is: the client misspelt it.
        const misspelt = await expectError(await server.get('/api/crypto/enc?date=x', auth()), 400, 7);
        expect(misspelt.details).to.equal('Unknown query parameter(s): date (this endpoint takes data)');
        const long = await expectError(
          await server.get(`/api/crypto/enc?data=x&${'n'.repeat(5000)}=1`, auth()),
          400,
          7,
        );
        expect(long.details!.length).to.be.below(300);
      });

      it('refuses options not offered instead of answering as if they were not there: a barcode option of another name, a quote author', async () => {
        // color, width and eclevel are taken since 0.9.0; a name no option has is still refused, not ignored.
        const barcode = await expectError(
          await server.get('/api/barcode/gen/qrcode?content=x&colour=ff0000&margin=4', auth()),
          400,
          7,
        );
        expect(barcode.details).to.match(
          /^Unknown query parameter\(s\): colour, margin \(this endpoint takes content, format, /,
        );
        const quote = await expectError(await server.get('/api/quotes/random?author=Nobody', auth()), 400, 7);
        expect(quote.details).to.equal('Unknown query parameter(s): author (this endpoint takes type, category)');
        // A category is taken since 0.9.0: one that holds nothing is not found, not a random other one.
        await expectError(await server.get('/api/quotes/random?category=wisdom', auth()), 404, 22);
        // What a route takes is still taken.
        expect((await server.get('/api/crypto/enc?data=x', auth())).status).to.equal(200);
      });
    });

    describe('a JSON key given twice', () => {
      const raw = (body: string) => ({ token: admin, raw: { body, contentType: 'application/json' } });
      const outboxSize = async () =>
        expectRight(await server.app.useCases.mail.messageReader.list(OPERATOR, { limit: 1000 })).length;

      it('refuses {"to": a, "to": b} with 400/11 naming to, queueing nothing (the last one used to be sent to)', async () => {
        const before = await outboxSize();
        const body = '{"to": "a@example.com", "subject": "Hi", "content": "Hello", "to": "b@example.com"}';
        const refused = await expectError(await server.send('POST', '/api/mail/send', raw(body)), 400, 11);
        expect(refused.details).to.equal('to must be given once');
        expect(await outboxSize()).to.equal(before);
      });

      it('refuses a key given twice at any depth, however it is escaped, naming where, and stores nothing', async () => {
        const before = await server.snapshot();
        const person = JSON.stringify(newPerson());
        const cases: [string, string, string][] = [
          ['POST', '/api/user/create', person.replace('}', ',"email":"other@example.com"}')],
          ['POST', '/api/user/create', person.replace('}', ',"p\\u0061ssword":"another horse battery"}')],
          ['POST', '/api/token/create', '{"name":"ci","rateLimit":{"requests":1,"perSeconds":1,"requests":1000000}}'],
          ['PATCH', '/api/user/update', '{"perms":["Cryptography::Encrypt"],"perms":["*"]}'],
        ];
        const details = [
          'email must be given once',
          'password must be given once',
          'rateLimit.requests must be given once',
          'perms must be given once',
        ];
        for (const [index, [method, path, body]] of cases.entries()) {
          const refused = await expectError(await server.send(method, path, raw(body)), 400, 11);
          expect(refused.details, body).to.equal(details[index]);
        }
        expect(await server.snapshot()).to.deep.equal(before);
        // The same names in separate objects are no repetition.
        const distinct = await server.send(
          'POST',
          '/api/token/create',
          raw('{"name":"requests","rateLimit":{"requests":10,"perSeconds":10}}'),
        );
        expect(distinct.status, await distinct.clone().text()).to.equal(201);
      });
    });

    describe('control and invisible formatting characters', () => {
      it('refuses them in names, emails and passwords with 400/11 naming the field, storing nothing', async () => {
        const before = await server.snapshot();
        for (const character of INVISIBLE) {
          for (const [field, value] of [
            ['firstname', `Ada${character}`],
            ['lastname', `${character}Lovelace`],
            ['email', `ada${character}@example.com`],
            ['password', `correct horse${character} battery`],
          ] as const) {
            const error = await expectError(
              await server.send('POST', '/api/user/create', { token: admin, json: newPerson({ [field]: value }) }),
              400,
              11,
            );
            expect(error.details, `${field} U+${character.codePointAt(0)!.toString(16)}`).to.match(
              new RegExp(`^${field} must .*invisible formatting characters`),
            );
          }
        }
        expect(await server.snapshot()).to.deep.equal(before);
      });

      it('refuses them in a display name and a token label', async () => {
        const before = await server.snapshot();
        const update = await server.send('PATCH', '/api/user/update', {
          token: admin,
          json: { displayname: 'admin\u202Egpj.exe' },
        });
        expect((await expectError(update, 400, 11)).details).to.match(/^displayname must/);
        const token = await server.send('POST', '/api/token/create', { token: admin, json: { name: 'ci\u200Bbot' } });
        expect((await expectError(token, 400, 11)).details).to.match(/^name must/);
        expect(await server.snapshot()).to.deep.equal(before);
      });

      it('refuses them in a place name (400/7) and a word (400/7)', async () => {
        const place = await expectError(
          await server.get('/api/location/coords?address=Par%E2%80%AEis', auth()),
          400,
          7,
        );
        expect(place.details).to.match(
          /^address must not contain control characters or invisible formatting characters/,
        );
        await expectError(await server.get('/api/dictionary/def?word=wa%E2%80%8Bter', auth()), 400, 7);
      });
    });

    describe('character limits count what a user counts', () => {
      it('takes a password of 200 emoji and names of 100, and refuses one more', async () => {
        const fits = await server.send('POST', '/api/user/create', {
          token: admin,
          json: newPerson({ password: EMOJI.repeat(200), firstname: EMOJI.repeat(100) }),
        });
        expect(fits.status, await fits.clone().text()).to.equal(201);
        const password = await server.send('POST', '/api/user/create', {
          token: admin,
          json: newPerson({ password: EMOJI.repeat(257) }),
        });
        expect((await expectError(password, 400, 11)).details).to.match(/password/);
        const name = await server.send('POST', '/api/user/create', {
          token: admin,
          json: newPerson({ firstname: EMOJI.repeat(101) }),
        });
        await expectError(name, 400, 11);
      });

      it('takes a token label of 100 emoji', async () => {
        const response = await server.send('POST', '/api/token/create', {
          token: admin,
          json: { name: EMOJI.repeat(100) },
        });
        expect(response.status, await response.clone().text()).to.equal(201);
        await expectError(
          await server.send('POST', '/api/token/create', { token: admin, json: { name: EMOJI.repeat(101) } }),
          400,
          11,
        );
      });

      it('keeps byte limits where they protect memory: encrypted data is counted in UTF-8 bytes', async () => {
        const limit = server.app.config.encryption.maxPlaintextBytes;
        const fourBytes = encodeURIComponent(EMOJI);
        expect(
          (await server.get(`/api/crypto/enc?data=${fourBytes.repeat(Math.floor(limit / 4))}`, auth())).status,
        ).to.equal(200);
        const over = await expectError(
          await server.get(`/api/crypto/enc?data=${fourBytes.repeat(Math.floor(limit / 4) + 1)}`, auth()),
          400,
          7,
        );
        expect(over.details).to.include(`${limit} UTF-8 bytes`);
      });
    });

    describe('derived usernames', () => {
      it('never refuses a derived username, even for creations of one name at once; 409 only for a chosen one', async () => {
        const responses = await Promise.all(
          Array.from({ length: 6 }, () =>
            server.send('POST', '/api/user/create', {
              token: admin,
              json: newPerson({ firstname: 'Con', lastname: 'Current' }),
            }),
          ),
        );
        const usernames: string[] = [];
        for (const response of responses) {
          expect(response.status, await response.clone().text()).to.equal(201);
          usernames.push(((await response.json()) as { username: string }).username);
        }
        expect(new Set(usernames).size).to.equal(6);
        expect(usernames).to.include('con.current');
        const chosen = await server.send('POST', '/api/user/create', {
          token: admin,
          json: newPerson({ username: 'con.current' }),
        });
        await expectError(chosen, 409, 26);
      });
    });
  });
}

describe('http: requests Node would refuse before Koa', () => {
  const suite = serverForSuite();
  let server: TestServer;
  before(() => {
    server = suite.server;
  });

  it('refuses an HTTP/1.1 request without Host with the JSON error object, 400/9 naming host', async () => {
    const response = await rawRequest(server.port, 'GET /api/crypto/enc?data=x HTTP/1.1\r\n\r\n');
    expect(response.status).to.equal(400);
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(response.headers['x-request-id']).to.be.a('string');
    expect(JSON.parse(response.body)).to.deep.equal({
      code: 9,
      message: 'Invalid Header Parameter(s)',
      details: 'host is required in HTTP/1.1',
    });
  });

  it('lets an HTTP/1.0 request without Host through, as HTTP/1.0 allows', async () => {
    const response = await rawRequest(server.port, 'GET /api/crypto/enc?data=x HTTP/1.0\r\n\r\n');
    expect(response.status).to.equal(401);
    expect(JSON.parse(response.body)).to.deep.include({ code: 3 });
  });

  it('refuses an expectation other than 100-continue with 400/9 naming expect, not a bare 417', async () => {
    const response = await rawRequest(
      server.port,
      'GET /api/crypto/enc?data=x HTTP/1.1\r\nHost: x\r\nExpect: the-unexpected\r\n\r\n',
    );
    expect(response.status).to.equal(400);
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(JSON.parse(response.body)).to.deep.equal({
      code: 9,
      message: 'Invalid Header Parameter(s)',
      details: 'expect may only be 100-continue',
    });
  });

  it('meets Expect: 100-continue and then answers the request', async () => {
    const token = await server.tokenFor(['Tokens::Create']);
    const body = JSON.stringify({ name: 'continued' });
    const answer = await rawExchange(
      server.port,
      `POST /api/token/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n${body}`,
    );
    expect(answer).to.match(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });

  it('answers CONNECT with 405/28 and an Allow header, as JSON', async () => {
    const response = await rawRequest(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(response.status).to.equal(405);
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(response.headers.allow).to.equal('GET, HEAD, POST, PATCH, DELETE');
    expect(JSON.parse(response.body)).to.deep.include({ code: 28 });
  });

  it('answers malformed request lines with the JSON 400/9 saying what the parser found, and keeps serving', async () => {
    const cases: [string, string][] = [
      ['GET /api/crypto/enc HTTP/9.9', 'Malformed HTTP request: Invalid HTTP version'],
      ['G\u0000T / HTTP/1.1', 'Malformed HTTP request: Invalid method encountered'],
      ['GET /a b c HTTP/1.1', 'Malformed HTTP request: Expected HTTP/, RTSP/ or ICE/'],
      ['/api/crypto/enc HTTP/1.1', 'Malformed HTTP request: Invalid method encountered'],
    ];
    for (const [line, details] of cases) {
      const response = await rawRequest(server.port, `${line}\r\nHost: x\r\n\r\n`);
      expect(response.status, line).to.equal(400);
      expect(response.headers['content-type'], line).to.equal('application/json; charset=utf-8');
      expect(JSON.parse(response.body), line).to.deep.equal({
        code: 9,
        message: 'Invalid Header Parameter(s)',
        details,
      });
    }
    expect((await server.get('/api/nope')).status).to.equal(404);
  });

  it('echoes at most 200 characters of a long unknown path in a 404', async () => {
    const path = `/api/${'x'.repeat(5000)}`;
    const body = await expectError(await server.get(path), 404, 22);
    expect(body.details).to.equal(`No endpoint GET ${path.slice(0, 200)}…`);
  });
});
