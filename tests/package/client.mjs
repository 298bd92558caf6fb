// Run by installed-package.test.ts in the folder the packed package is installed into: the
// client entry, as a user imports it by name, against a server made from the package's other
// entries. It prints one JSON object of what it saw, for the test to assert on.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { buildUseCases } from 'utility-api';
import { createClient } from 'utility-api/client';
import { OPERATOR, Permission } from 'utility-api/domain';
import { createHttpApp } from 'utility-api/http';

const api = await buildUseCases({
  families: ['usersAndTokens', 'crypto'],
  storage: 'memory',
  encryption: { key: randomBytes(32).toString('base64') },
  log: { level: 'silent' },
});
await api.useCases.usersAndTokens.createUser.execute({
  actor: OPERATOR,
  username: 'ada',
  password: 'correct horse battery staple',
  permissions: [Permission.CryptographyEncrypt],
});
const server = createServer(createHttpApp(api).callback());
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;

const seen = {};
const client = createClient({ baseUrl, token: { username: 'ada', password: 'correct horse battery staple' } });
const encrypted = await client.GET('/api/crypto/enc', { params: { query: { data: 'hi' } } });
seen.encrypted = { ok: encrypted.ok, type: typeof encrypted.data, rateLimit: encrypted.rateLimit?.policy };
const refused = await client.GET('/api/crypto/dec', { params: { query: { data: encrypted.data } } });
seen.refused = { status: refused.status, error: refused.error };
const anonymous = await createClient({ baseUrl }).GET('/api/crypto/enc', { params: { query: { data: 'hi' } } });
seen.anonymous = { status: anonymous.status, code: anonymous.error?.code };
await new Promise((resolve) => server.close(resolve));
const gone = await createClient({ baseUrl, token: 't' }).GET('/livez');
seen.gone = gone.failure?.kind;
await api.close();

console.log(JSON.stringify(seen));
