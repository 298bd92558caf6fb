import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { ContainerModule } from 'inversify';
import { randomBytes } from 'node:crypto';
import { FAMILIES } from '../../src/composition/families.js';
import { defineFamily } from '../../src/wiring/family.js';
import { RouteContribution, useCasesIdentifier } from '../../src/wiring/identifiers.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { DomainError } from '../../src/domain/errors.js';
import { buildUseCasesFrom } from '../../src/library.js';
import { asString, nonEmptyString, type SettingsSection } from '../../src/platform/config/codecs.js';
import { text } from '../../src/platform/http/codecs.js';
import { required } from '../../src/platform/http/fields.js';
import { defineRoute, jsonOf } from '../../src/platform/http/route-table.js';
import { mostly } from '../../src/platform/http/route-samples.js';
import { expectRight } from '../support/either.js';
import { requestsFor } from '../support/route-fuzz.js';
import { samplesFrom } from '../support/route-samples.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/**
 * Issue 25 §2: a family is one descriptor, and the service reads the list of them. A family
 * defined here, in the test, with one route, one setting and one permission, is served (its
 * permission granted, checked and switched off like any other), in the
 * OpenAPI document, read by the settings loader (its environment variable works, a bad value
 * stops start-up with one clear line), and in buildUseCases.
 */
interface Greet {
  execute(name: string): E.Either<DomainError, { readonly text: string }>;
}
interface GreetingUseCases {
  readonly greet: Greet;
}
const GreetingUseCases = useCasesIdentifier<GreetingUseCases>('GreetingUseCases');

const greetingSettings: SettingsSection<'greeting', { readonly word: string }> = {
  key: 'greeting',
  codec: t.type({ word: nonEmptyString }),
  defaults: { word: 'hello' },
  environment: [{ name: 'UTILITY_API_GREETING_WORD', path: 'word', parse: asString }],
};

const GreetingPermission = { GreetingSay: 'Greeting::Say' } as const;

const greeting = defineFamily({
  name: 'greeting',
  settings: greetingSettings,
  permissions: GreetingPermission,
  module: ({ word }) =>
    new ContainerModule(({ bind }) => {
      const greet: Greet = { execute: (name) => E.right({ text: `${word}, ${name}` }) };
      bind(GreetingUseCases).toConstantValue({ greet });
      bind(RouteContribution).toConstantValue({
        section: { name: 'Greetings', description: 'A greeting for whoever asks, in the word the operator chose.' },
        routes: [
          defineRoute({
            method: 'GET',
            path: '/greeting/say',
            permission: GreetingPermission.GreetingSay,
            summary: 'A greeting for a name',
            query: { name: required(text(1, 40), 'whom to greet') },
            response: t.strict({ text: t.string }),
            errors: ['MissingQueryParameter', 'InvalidQueryParameter'],
            handle: async ({ query }) => jsonOf(greet.execute(query.name)),
          }),
        ],
      });
    }),
  useCases: GreetingUseCases,
  samples: { 'GET /greeting/say': { query: { name: mostly(['Ada', 'Zoë'], ['', 'a\u0000b']) } } },
});

const WITH_GREETING = [...FAMILIES, greeting];

describe('a family defined outside src/families, added to the list', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ familyList: WITH_GREETING, env: { UTILITY_API_GREETING_WORD: 'ahoy' } });
  });
  after(() => server.close());

  it('is served, with its setting taken from its environment variable, to a user granted its permission', async () => {
    const token = await server.tokenFor(['Greeting::Say']);
    const answer = await server.send('GET', '/api/greeting/say?name=Ada', { token });
    expect(answer.status).to.equal(200);
    expect(await answer.json()).to.deep.equal({ text: 'ahoy, Ada' });
  });

  it('checks its permission like every other route, and its family can be granted whole', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt']);
    await expectError(await server.send('GET', '/api/greeting/say?name=Ada', { token }), 403, 1);
    const wildcard = await server.tokenFor(['Greeting::*']);
    expect((await server.send('GET', '/api/greeting/say?name=Ada', { token: wildcard })).status).to.equal(200);
  });

  it('has its permission known to the service beside it only: a server without it refuses to grant it', async () => {
    const without = await startServer();
    try {
      const admin = await without.tokenFor(['*']);
      const { uid } = await without.userWithToken([]);
      const refused = await without.send('PATCH', '/api/user/update', {
        token: admin,
        headers: { 'x-uid': uid },
        json: { perms: ['Greeting::Say'] },
      });
      const body = await expectError(refused, 400, 11);
      expect(body.message + JSON.stringify(body.details ?? '')).to.include('Greeting::Say');
    } finally {
      await without.close();
    }
  });

  it('has its permission family switchable like every other', () => {
    const read = (env: Record<string, string>) => loadConfig({ env, families: WITH_GREETING });
    const switched = expectRight(read({ UTILITY_API_DISABLED_FAMILIES: 'Greeting' }));
    expect(switched.features.disabled).to.deep.equal(['Greeting']);
    expect(E.isLeft(loadConfig({ env: { UTILITY_API_DISABLED_FAMILIES: 'Greeting' } }))).to.equal(true);
  });

  it('is in the OpenAPI document, with its parameter and its permission', async () => {
    const document = (await (await server.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; description?: string }>>;
    };
    const operation = document.paths['/api/greeting/say']?.get;
    expect(operation, 'GET /api/greeting/say').to.not.equal(undefined);
    expect(operation!.parameters!.map((parameter) => parameter.name)).to.include('name');
    expect(JSON.stringify(operation)).to.include('Greeting::Say');
  });

  it('has its settings read by the loader: defaults, environment, and a bad value refused in one line', () => {
    const read = (env: Record<string, string>) => loadConfig({ env, families: WITH_GREETING });
    const defaults = expectRight(read({})) as unknown as { greeting: { word: string } };
    expect(defaults.greeting).to.deep.equal({ word: 'hello' });
    const fromEnvironment = expectRight(read({ UTILITY_API_GREETING_WORD: 'hi' })) as unknown as {
      greeting: { word: string };
    };
    expect(fromEnvironment.greeting.word).to.equal('hi');
    expect(read({ UTILITY_API_GREETING_WORD: '   ' })).to.deep.equal(
      E.left([
        'Invalid setting greeting.word (from env UTILITY_API_GREETING_WORD): expected a non-empty string, got "   "',
      ]),
    );
    // Without the family in the list, its section is no setting of the service.
    expect(expectRight(loadConfig({ env: { UTILITY_API_GREETING_WORD: 'hi' } }))).not.to.have.property('greeting');
  });

  it('is in the fuzz suite: its samples make requests its route answers, as it should, with 200 or a catalogue 400', async () => {
    const route = server.app.routes.routes.find(({ path }) => path === '/greeting/say')!;
    const samples = samplesFrom(WITH_GREETING)(route);
    const requests = fc.sample(requestsFor(route, samples, { ciphertexts: [] }, { kind: 'honest' }), {
      seed: 25,
      numRuns: 40,
    });
    const token = await server.tokenFor(['Greeting::Say']);
    const statuses = new Set<number>();
    for (const request of requests) {
      const answer = await server.send(request.method, request.target, {
        token,
        headers: request.headers as Record<string, string>,
      });
      statuses.add(answer.status);
      if (answer.status !== 200) expect([6, 7]).to.include(((await answer.json()) as { code: number }).code);
      else expect(((await answer.json()) as { text: string }).text).to.match(/^ahoy, /);
    }
    expect([...statuses].sort()).to.deep.equal([200, 400]);
    // The service's own families have no samples for it: the fuzz suite stops and names the field.
    expect(() =>
      fc.sample(requestsFor(route, samplesFrom()(route), { ciphertexts: [] }, { kind: 'honest' }), 1),
    ).to.throw('no sample for query name of GET /greeting/say');
  });

  it('is built by buildUseCases, by its name, beside the service’s own', async () => {
    const api = await buildUseCasesFrom(WITH_GREETING, {
      families: ['greeting', 'crypto'],
      log: { level: 'silent' },
      storage: 'memory',
      encryption: { key: randomBytes(32).toString('base64') },
      greeting: { word: 'hey' },
    });
    try {
      const { greet } = (api.useCases as unknown as { greeting: GreetingUseCases }).greeting;
      expect(greet.execute('Ada')).to.deep.equal(E.right({ text: 'hey, Ada' }));
      expect(Object.keys(api.useCases)).to.deep.equal(['crypto', 'greeting']);
    } finally {
      await api.close();
    }
  });
});
