import { expect } from 'chai';
import { API_PREFIX } from '../../src/platform/http/app.js';
import { openApiDocument } from '../../src/platform/http/openapi.js';
import { familyOfRoute } from '../../src/platform/http/route-table.js';

import { expectError, startServer, type TestServer } from '../support/http-server.js';
import { SERVICE_PERMISSIONS } from '../support/permissions.js';

type Operation = { 'x-disabled'?: boolean; responses: Record<string, unknown> };

describe('http: feature switches (features.disabled)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_DISABLED_FAMILIES: 'Weather,Tokens' } });
  });
  after(async () => server.close());

  it('answers every endpoint of a family turned off 423 code 23, before asking for a token, naming the family', async () => {
    for (const path of [
      '/api/weather/current?lat=1&lon=2',
      '/api/weather/forecast?city=Paris',
      '/api/token/info',
      '/api/token/list',
    ]) {
      const body = await expectError(await server.get(path), 423, 23);
      expect(body.message).to.equal('This endpoint is currently disabled');
      expect(body.details).to.match(/^The (Weather|Tokens) endpoints are turned off on this installation/);
    }
    const token = await server.tokenFor(['*']);
    await expectError(
      await server.send('PATCH', '/api/token/update?id=x', { token, json: { disabled: true } }),
      423,
      23,
    );
  });

  it('serves the other families as before', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt', 'Users::Read']);
    expect((await server.get('/api/crypto/enc?data=hello', { Authorization: `Bearer ${token}` })).status).to.equal(200);
    // Users are not Tokens: only the family named is off.
    expect((await server.get('/api/user/get', { Authorization: `Bearer ${token}` })).status).to.equal(200);
  });

  it('marks the operations turned off in the OpenAPI document, with their 423, and only those', async () => {
    const document = (await (await server.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const current = document.paths['/api/weather/current']!.get!;
    expect(current['x-disabled']).to.equal(true);
    expect(current.responses).to.have.property('423');
    expect(document.paths['/api/token/delete']!.delete!['x-disabled']).to.equal(true);
    const encrypt = document.paths['/api/crypto/enc']!.get!;
    expect(encrypt).to.not.have.property('x-disabled');
    expect(encrypt.responses).to.not.have.property('423');
  });
});

describe('http: turning off the System family', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_DISABLED_FAMILIES: 'System' } });
  });
  after(async () => server.close());

  it('turns off /metrics, and leaves on what is asked without a token: health, the document, the change log, the reference', async () => {
    const token = await server.tokenFor(['*']);
    await expectError(await server.get('/metrics', { Authorization: `Bearer ${token}` }), 423, 23);
    for (const path of ['/livez', '/readyz', '/api/openapi.json', '/api/changelog', '/docs'])
      expect((await server.get(path)).status, path).to.equal(200);
  });
});

describe('http: every route belongs to a permission family, so that each can be turned off', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('names a known family for every route, and leaves every route on by default', () => {
    const table = server.app.routes;
    for (const route of table.routes) {
      expect(SERVICE_PERMISSIONS.families, `${route.method} ${route.path}`).to.include(familyOfRoute(route));
      expect(route.disabled, `${route.method} ${route.path}`).to.equal(undefined);
    }
    const paths = (openApiDocument(table, API_PREFIX) as { paths: Record<string, Record<string, Operation>> }).paths;
    expect(
      Object.values(paths)
        .flatMap((operations) => Object.values(operations))
        .filter((operation) => operation['x-disabled']),
    ).to.deep.equal([]);
  });
});
