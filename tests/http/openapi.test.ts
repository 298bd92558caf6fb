import { permissionCatalogueOf } from '../../src/composition/families.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { optional, required } from '../../src/platform/http/fields.js';
import { defineRoute, text as textBody } from '../../src/platform/http/route-table.js';
import { errorCatalogue } from '../../src/domain/errors.js';
import { serverForSuite, type TestServer } from '../support/http-server.js';
import { conformanceTo } from '../support/openapi-conformance.js';

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: Record<string, unknown>;
}
interface Operation {
  readonly security?: readonly Record<string, unknown>[];
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: {
    required: boolean;
    content: {
      'application/json': { schema: { properties: Record<string, Record<string, unknown>>; required?: string[] } };
    };
  };
  readonly responses: Record<
    string,
    { content?: Record<string, { schema: Record<string, unknown> }>; headers?: Record<string, unknown> }
  >;
  readonly deprecated?: boolean;
  readonly tags?: readonly string[];
}
interface Document {
  readonly openapi: string;
  readonly info: { readonly description: string };
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly servers: readonly { url: string }[];
  readonly paths: Record<string, Record<string, Operation>>;
}

/** The document with each shared error answer written where an operation points to it, for the checks that read them. */
function withSharedResponsesInPlace(document: Document): Document {
  const shared = (document as unknown as { components: { responses: Record<string, unknown> } }).components.responses;
  for (const operations of Object.values(document.paths))
    for (const operation of Object.values(operations))
      for (const [status, response] of Object.entries(operation.responses)) {
        const ref = (response as { $ref?: string }).$ref;
        if (ref) (operation.responses as Record<string, unknown>)[status] = shared[ref.split('/').pop()!];
      }
  return document;
}

const codesOf = (operation: Operation, status: number): number[] => {
  const schema = operation.responses[status]!.content!['application/json']!.schema as {
    allOf: [unknown, { oneOf: { properties: { code: { const: number } } }[] }];
  };
  return schema.allOf[1].oneOf.map((entry) => entry.properties.code.const);
};

describe('http: GET /api/openapi.json is an exact OpenAPI 3.1 document', () => {
  const suite = serverForSuite();
  let server: TestServer;
  let text: string;
  let document: Document;
  before(async () => {
    server = suite.server;
    const response = await server.get('/api/openapi.json');
    expect(response.status).to.equal(200);
    text = await response.text();
    document = withSharedResponsesInPlace(JSON.parse(text) as Document);
  });

  it('lists every permission a user or token may hold, those no operation asks for by name included', () => {
    const listed = (JSON.parse(text) as { 'x-permissions': string[] })['x-permissions'];
    expect(listed).to.deep.equal(permissionCatalogueOf().known);
    expect(listed).to.include.members(['Users::Block', 'Tokens::Update', 'Cryptography::Encrypt', 'System::Metrics']);
  });

  it('writes each error answer once, under components, named by its status and codes, and points every operation there', () => {
    const raw = JSON.parse(text) as Document & { components: { responses: Record<string, unknown> } };
    const shared = raw.components.responses;
    expect(Object.keys(shared)).to.include.members(['Error401-3-4', 'Error429-25']);
    for (const [path, operations] of Object.entries(raw.paths))
      for (const operation of Object.values(operations))
        for (const [status, response] of Object.entries(operation.responses)) {
          const ref = (response as { $ref?: string }).$ref;
          if (Number(status) >= 400 && !(path === '/readyz' || path === '/livez'))
            expect(ref, `${path} ${status}`).to.match(
              new RegExp(`^#/components/responses/Error${status}(-\\d+)+(-v\\d+)?$`),
            );
          if (ref) expect(shared, ref).to.have.property(ref.split('/').pop()!);
        }
    // Far fewer than the operations that give them.
    expect(Object.keys(shared).length).to.be.lessThan(50);
  });

  it('refers only to its own components, each reference alone in its object, and holds no JSON Schema identifiers: /docs resolves it as 3.0 for speed', () => {
    // What the OpenAPI 3.0 resolver of Swagger UI resolves exactly as the 3.1 one does (src/platform/http/docs-page.ts).
    const raw = JSON.parse(text) as { components: Record<string, Record<string, unknown>> };
    const references: string[] = [];
    const keywordsOfTheirOwn: string[] = [];
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${at}/${index}`));
      if (typeof value !== 'object' || value === null) return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref') {
          expect(Object.keys(value), `${at}: a reference beside other keywords`).to.deep.equal(['$ref']);
          references.push(inner as string);
        } else if (key.startsWith('$')) keywordsOfTheirOwn.push(`${at}/${key}`);
        visit(inner, `${at}/${key}`);
      }
    };
    visit(raw, '#');
    expect(keywordsOfTheirOwn, '$id, $anchor, $defs, $dynamicRef and the like').to.deep.equal([]);
    expect(references.length).to.be.greaterThan(100);
    for (const reference of new Set(references)) {
      const [, kind, name] = /^#\/components\/([A-Za-z]+)\/([A-Za-z0-9._-]+)$/.exec(reference) ?? [];
      expect(kind, `${reference} is a local pointer to a component`).to.be.a('string');
      expect(raw.components[kind!], reference).to.have.property(name!);
    }
  });

  it('is valid for an independent validator of OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(text) as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
    // The same validator refuses a document that breaks the rules, so its yes above means something.
    const broken = JSON.parse(text) as {
      paths: Record<string, Record<string, { parameters?: { in: string; required?: boolean }[] }>>;
    };
    broken.paths['/api/game/network/maps/{map}']!.get!.parameters!.find(
      (parameter) => parameter.in === 'path',
    )!.required = false;
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).to.equal(false);
  });

  it('is accepted by a generator of TypeScript types, which sees the operations, parameters and bodies', async () => {
    const types = astToString(await openapiTS(JSON.parse(text) as Parameters<typeof openapiTS>[0], { silent: true }));
    expect(types).to.include('"/api/game/network/maps/{map}"');
    expect(types).to.match(/map: string;/);
    expect(types).to.match(/partOfSpeech: "noun" \| "verb" \| "adjective" \| "adverb";/);
    expect(types).to.match(/scale\?: number;/);
    expect(types).to.match(/deleted: true;/);
  });

  it('names the server and declares every path parameter', () => {
    expect(document.servers).to.deep.equal([{ url: '/', description: 'the server that serves this document' }]);
    for (const [path, operations] of Object.entries(document.paths)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(operations)) {
        const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
        expect(
          declared.map((parameter) => parameter.name),
          path,
        ).to.deep.equal(inPath);
        expect(
          declared.every((parameter) => parameter.required),
          path,
        ).to.equal(true);
      }
    }
    expect(document.paths['/api/game/network/maps/{map}']!.get!.parameters).to.deep.include({
      name: 'map',
      in: 'path',
      required: true,
      description: 'the game, e.g. hide, dr, wars (a game id of 1 to 32 characters a-z, 0-9, _ or -)',
      schema: { type: 'string', pattern: '^[a-z0-9_-]{1,32}$' },
      example: 'hide',
    });
  });

  it('derives parameter schemas from the codecs: types, enums, ranges, lengths, patterns', () => {
    const barcode = Object.fromEntries(
      document.paths['/api/barcode/gen/{codec}']!.get!.parameters!.map((parameter) => [parameter.name, parameter]),
    );
    expect(barcode.scale!.schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 10 });
    expect(barcode.height!.schema).to.deep.equal({ type: 'number', minimum: 1, maximum: 100 });
    expect(barcode.format!.schema).to.deep.equal({ type: 'string', enum: ['png', 'svg'] });
    expect(barcode.includetext!.schema).to.deep.equal({ type: 'boolean' });
    expect(barcode['x-format']).to.include({ in: 'header', required: false });
    const pluscode = Object.fromEntries(
      document.paths['/api/location/pluscode']!.get!.parameters!.map((parameter) => [parameter.name, parameter]),
    );
    expect(pluscode.length!.schema).to.deep.equal({ type: 'integer', enum: [2, 4, 6, 8, 10, 11, 12, 13, 14, 15] });
    expect(pluscode.lat!.schema).to.deep.equal({ type: 'number', minimum: -90, maximum: 90 });
    expect(pluscode.near!.schema).to.deep.equal({ type: 'string', minLength: 1, maxLength: 200 });
  });

  it('derives body schemas from the codecs, with what is required and nothing else allowed', () => {
    expect(document.paths['/api/user/create']!.post!.requestBody!.required).to.equal(true);
    expect(document.paths['/api/token/create']!.post!.requestBody!.required).to.equal(false);
    const create = document.paths['/api/user/create']!.post!.requestBody!.content['application/json'].schema;
    expect(create).to.include({ type: 'object', additionalProperties: false });
    expect(create.required).to.deep.equal(['firstname', 'lastname', 'email', 'password']);
    expect(create.properties.username).to.include({ type: 'string', minLength: 2, maxLength: 32 });
    const token = document.paths['/api/token/create']!.post!.requestBody!.content['application/json'].schema;
    expect(token.required).to.equal(undefined);
    expect(token.properties.permissions).to.include({ type: 'array', maxItems: 50 });
    expect(token.properties.expiresIn!.anyOf).to.deep.equal([
      { type: 'string', pattern: '^(\\d{1,6})([smhdwy])$' },
      { type: 'integer', minimum: 1, maximum: 315_360_000 },
    ]);
  });

  it('describes each success body from the response codec of its row', () => {
    const synonyms = document.paths['/api/dictionary/syn']!.get!.responses[200]!.content!['application/json']!.schema;
    expect(synonyms).to.deep.equal({
      type: 'object',
      properties: {
        word: { type: 'string' },
        lemmas: { type: 'array', items: { type: 'string' } },
        synonyms: { type: 'array', items: { type: 'string' } },
        senses: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              lemma: { type: 'string' },
              partOfSpeech: { type: 'string', enum: ['noun', 'verb', 'adjective', 'adverb'] },
              definition: { type: 'string' },
              synonyms: { type: 'array', items: { type: 'string' } },
            },
            required: ['lemma', 'partOfSpeech', 'definition', 'synonyms'],
            additionalProperties: false,
          },
        },
      },
      required: ['word', 'lemmas', 'synonyms', 'senses'],
      additionalProperties: false,
    });
    expect(Object.keys(document.paths['/api/token/create']!.post!.responses)).to.include('201').and.not.include('200');
    expect(document.paths['/api/crypto/enc']!.get!.responses[200]!.content!['text/plain']!.schema).to.deep.equal({
      type: 'string',
    });
    expect(document.paths['/api/barcode/gen/{codec}']!.get!.responses[200]!.content).to.deep.equal({
      'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
      'image/svg+xml': { schema: { type: 'string', contentMediaType: 'image/svg+xml' } },
    });
    // The path that only says a game is missing has no success to describe.
    expect(Object.keys(document.paths['/api/game/network/maps']!.get!.responses)).to.not.include('200');
  });

  it('lists the error statuses and codes each operation can really answer, with the error object', () => {
    const player = document.paths['/api/game/network/player']!.get!;
    // 429: the request pipeline's rate limit stage may refuse any authenticated request; 503: the token store may not answer in time.
    expect(Object.keys(player.responses)).to.deep.equal([
      '200',
      '400',
      '401',
      '403',
      '404',
      '408',
      '429',
      '431',
      '500',
      '502',
      '503',
      '504',
    ]);
    expect(Object.keys(player.responses[401]!.headers ?? {})).to.deep.equal([
      'X-Request-Id',
      'RateLimit-Policy',
      'RateLimit',
      'WWW-Authenticate',
    ]);
    expect(Object.keys(player.responses[429]!.headers ?? {})).to.deep.equal([
      'X-Request-Id',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
    ]);
    expect(Object.keys(player.responses[503]!.headers ?? {})).to.deep.equal([
      'X-Request-Id',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
    ]);
    expect(codesOf(player, 503)).to.deep.equal([29]);
    expect(Object.keys(player.responses[200]!.headers ?? {})).to.include.members(['RateLimit-Policy', 'RateLimit']);
    // 11: a body, which this operation does not take.
    expect(codesOf(player, 400)).to.deep.equal([6, 7, 9, 11]);
    expect(codesOf(player, 404)).to.deep.equal([errorCatalogue.InformationNotFound.code]);
    expect(player.responses[404]!.content!['application/json']!.schema).to.deep.equal({
      allOf: [
        { $ref: '#/components/schemas/Error' },
        {
          oneOf: [
            { properties: { code: { const: 22 }, message: { const: errorCatalogue.InformationNotFound.message } } },
          ],
        },
      ],
    });
    const encrypt = document.paths['/api/crypto/enc']!.get!;
    expect(Object.keys(encrypt.responses)).to.not.include.members(['404', '409', '502']);
    expect(codesOf(encrypt, 500)).to.deep.equal([0, 12]);
    const updateUser = document.paths['/api/user/update']!.patch!;
    expect(codesOf(updateUser, 400)).to.deep.equal([7, 8, 9, 10, 11]);
    expect(codesOf(updateUser, 409)).to.deep.equal([26]);
    expect(Object.keys(document.paths['/api/token/create']!.post!.responses)).to.include('429');
  });

  it('lists each operation under its family, the families in the order of the docs, each said in one line', () => {
    expect(document.tags.map((tag) => tag.name)).to.deep.equal([
      'Cryptography',
      'Passwords',
      'Users and tokens',
      'Usage history',
      'Audit trail',
      'Game network (The Hive)',
      'Phone numbers',
      'Location',
      'Weather',
      'Dictionary',
      'Facts and quotes',
      'Barcodes',
      'Domain lookup',
      'Mail',
      'Webhooks',
      'System',
    ]);
    for (const tag of document.tags) expect(tag.description, tag.name).to.match(/^[A-Z][^\n]{20,160}\.$/);
    const sections = new Map(document.tags.map((tag) => [tag.name, [] as string[]]));
    for (const [path, operations] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.tags, `${method} ${path}`).to.have.length(1);
        sections.get(operation.tags![0]!)!.push(`${method.toUpperCase()} ${path}`);
      }
    expect(sections.get('Cryptography')).to.deep.equal([
      'GET /api/crypto/enc',
      'GET /api/crypto/dec',
      'GET /api/crypt/enc',
      'GET /api/crypt/decr',
    ]);
    expect(sections.get('Usage history')).to.deep.equal(['GET /api/token/usage', 'GET /api/user/usage']);
    expect(sections.get('System')).to.deep.equal([
      'GET /metrics',
      'GET /api/openapi.json',
      'GET /api/changelog',
      'GET /livez',
      'GET /readyz',
    ]);
    for (const [name, listed] of sections) expect(listed, name).not.to.deep.equal([]);
  });

  it('opens with what every operation shares: authentication, errors, rate limits and quotas', () => {
    for (const heading of ['**Authentication.**', '**Errors.**', '**Rate limits.**', '**Quotas.**'])
      expect(document.info.description).to.include(heading);
    expect(document.info.description).to.include('Authorization: Bearer <token>');
    expect(document.info.description).to.include('RateLimit-Policy');
  });

  it('gives each parameter the example "Try it out" fills in, one way of naming a thing at a time', () => {
    const parameters = (path: string, method = 'get') =>
      Object.fromEntries(
        (document.paths[path]![method]!.parameters ?? []).map((parameter) => [
          parameter.name,
          (parameter as { example?: unknown }).example,
        ]),
      );
    expect(parameters('/api/crypto/enc')).to.deep.equal({ data: 'hello' });
    // A ciphertext of this server's key cannot be written in advance: no example.
    expect(parameters('/api/crypto/dec')).to.deep.equal({ data: undefined });
    // lat and lon, and none of the other ways of giving a place.
    expect(parameters('/api/weather/current')).to.include({ lat: '52.52', lon: '13.41', city: undefined });
    expect(parameters('/api/weather/current')['x-city']).to.equal(undefined);
    const mail = document.paths['/api/mail/send']!.post!.requestBody!.content['application/json'] as unknown as {
      example: Record<string, unknown>;
    };
    expect(mail.example).to.include({ to: 'ada@example.com', subject: 'Your order' });
  });

  it('asks for a bearer token on every operation, and also takes a password where the route does', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations)) {
        if (['/api/openapi.json', '/api/changelog', '/livez', '/readyz'].includes(path))
          expect(operation.security, path).to.deep.equal([]);
        // A moved path asks for nothing itself; a client that follows it sends the new place its token.
        else if (operation.deprecated) expect(operation.security, path).to.deep.equal([{}, { bearer: [] }]);
        else if (path === '/api/token/create')
          expect(operation.security).to.deep.equal([{ bearer: [] }, { basic: [] }]);
        else expect(operation.security, path).to.deep.equal([{ bearer: [] }]);
      }
    }
  });
});

describe('tests/support: every answer in tests/http is checked against the document', () => {
  const suite = serverForSuite();
  let check: (method: string, path: string, response: Response) => Promise<void>;
  before(async () => {
    const conformance = conformanceTo(await (await suite.server.get('/api/openapi.json')).text());
    check = (method, path, response) => conformance.check(method, suite.server.baseUrl + path, response);
  });
  const jsonResponse = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' },
    });
  const failureOf = async (work: Promise<void>): Promise<string> => {
    try {
      await work;
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the check let it pass');
  };

  it('passes what the routes really answer', async () => {
    await check('GET', '/api/token/delete', jsonResponse(401, { code: 3, message: 'No API key provided' }));
    await check('DELETE', '/api/token/delete', jsonResponse(200, { deleted: true, id: 'x' }));
    await check('GET', '/API/Dictionary/Syn/', jsonResponse(200, { word: 'a', lemmas: [], synonyms: [], senses: [] }));
    await check(
      'GET',
      '/api/dictionary/def',
      jsonResponse(404, {
        code: 22,
        message: 'Unable to retrieve requested information',
        details: 'The dictionary has no entry for "recieve"',
        suggestions: ['receive', 'relieve'],
      }),
    );
    await check(
      'POST',
      '/api/nowhere',
      jsonResponse(404, { code: 22, message: 'Unable to retrieve requested information', details: 'No endpoint' }),
    );
  });

  it('fails a status the operation does not list', async () => {
    expect(
      await failureOf(
        check('GET', '/api/crypto/enc', jsonResponse(409, { code: 26, message: 'The resource already exists' })),
      ),
    ).to.include('a status the document does not list for GET /api/crypto/enc');
  });

  it('fails a body its schema refuses: a field too many, one missing, a code the operation never gives', async () => {
    expect(
      await failureOf(check('DELETE', '/api/user/delete', jsonResponse(200, { deleted: true, uid: 'u', extra: 1 }))),
    ).to.include('a body the document does not describe');
    expect(
      await failureOf(check('GET', '/api/dictionary/ant', jsonResponse(200, { word: 'a', lemmas: [] }))),
    ).to.include('antonyms');
    expect(
      await failureOf(
        check('GET', '/api/crypto/enc', jsonResponse(404, { code: 14, message: 'Unable to locate requested user' })),
      ),
    ).to.include('a status the document does not list');
    expect(
      await failureOf(
        check(
          'GET',
          '/api/user/get',
          jsonResponse(404, { code: 22, message: 'Unable to retrieve requested information' }),
        ),
      ),
    ).to.include('a body the document does not describe');
    expect(
      await failureOf(check('GET', '/api/user/get', jsonResponse(404, { code: 14, message: 'Not here' }))),
    ).to.include('a body the document does not describe');
    expect(
      await failureOf(
        check(
          'GET',
          '/api/user/get',
          new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } }),
        ),
      ),
    ).to.include('without its header X-Request-Id');
  });

  it('fails a success without a header the document says it carries, or with one it does not describe', async () => {
    const maps = (headers: Record<string, string>) =>
      new Response('[]', {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1', ...headers },
      });
    await check(
      'GET',
      '/api/game/network/maps/hide',
      maps({ 'x-cache': 'stale', warning: '110 - "Response is Stale"' }),
    );
    expect(await failureOf(check('GET', '/api/game/network/maps/hide', maps({})))).to.include(
      'without its header x-cache',
    );
    expect(await failureOf(check('GET', '/api/game/network/maps/hide', maps({ 'x-cache': 'warm' })))).to.include(
      'x-cache: warm, which the document does not describe',
    );
  });

  it('fails a content type the operation does not list, and anything but the error object where no operation is', async () => {
    expect(
      await failureOf(
        check(
          'GET',
          '/api/crypto/enc',
          new Response('x', { status: 200, headers: { 'content-type': 'text/html', 'x-request-id': 'r-1' } }),
        ),
      ),
    ).to.include('which the document does not list');
    expect(await failureOf(check('GET', '/api/nowhere', jsonResponse(404, { error: 'no' })))).to.include(
      'outside the document',
    );
  });
});

describe('http: a route row declares the parameters of its path', () => {
  const row = {
    method: 'GET',
    permission: null,
    summary: 'a row',
    response: t.string,
    handle: () => E.right(textBody('')),
  } as const;

  it('refuses a row whose path parameters are not the ones it declares', () => {
    expect(() => defineRoute({ ...row, path: '/thing/:id' })).to.throw(
      'GET /thing/:id declares the path parameters [], its path has [id]',
    );
    expect(() => defineRoute({ ...row, path: '/thing', params: { id: required(t.string, 'an id') } })).to.throw(
      'declares the path parameters [id], its path has []',
    );
    expect(() => defineRoute({ ...row, path: '/thing/:id', params: { key: optional(t.string, 'a key') } })).to.throw(
      '[key], its path has [id]',
    );
  });

  it('fills in what the row leaves out: no query or headers, 200 with JSON, no errors of its own', () => {
    const route = defineRoute({ ...row, path: '/thing/:id', params: { id: required(t.string, 'an id') } });
    expect(route).to.include({ status: 200, produces: 'application/json' });
    expect(route.query).to.deep.equal({});
    expect(route.headers).to.deep.equal({});
    expect(route.errors).to.deep.equal([]);
  });
});
