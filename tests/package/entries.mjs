// Run by installed-package.test.ts beside example.mjs, in the folder the packed package is
// installed into: what the other two entries give, and what the exports map keeps out. It prints
// one JSON object of what it saw, for the test to assert on.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { buildUseCases, InvalidSettings } from 'utility-api';
import { OPERATOR, Permission } from 'utility-api/domain';
import { createHttpApp } from 'utility-api/http';

const seen = {};

const refusal = async (work) => {
  try {
    await work();
    return 'accepted';
  } catch (error) {
    return {
      name: error.name,
      code: error.code,
      message: error.message,
      invalidSettings: error instanceof InvalidSettings,
    };
  }
};
seen.deepImport = await refusal(() => import('utility-api/dist/container.js'));
seen.noKey = await refusal(() => buildUseCases({ families: ['crypto'], storage: 'memory' }));

const api = await buildUseCases({
  families: ['usersAndTokens', 'crypto'],
  storage: 'memory',
  encryption: { key: randomBytes(32).toString('base64') },
  log: { level: 'silent' },
});
seen.families = Object.keys(api.useCases);
await api.useCases.usersAndTokens.createUser.execute({
  actor: OPERATOR,
  username: 'ada',
  permissions: [Permission.CryptographyEncrypt],
});
const token = await api.useCases.usersAndTokens.issueToken.execute({ actor: OPERATOR, owner: { username: 'ada' } });

const server = createServer(createHttpApp(api).callback());
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/api`;
const answer = async (path) => {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token.right.secret}` } });
  return { status: response.status, body: await response.text() };
};
seen.encrypt = await answer('/crypto/enc?data=hi');
seen.decrypt = await answer(`/crypto/dec?data=${seen.encrypt.body}`);
seen.phone = await answer('/phone/details?number=%2B33123456789');
await new Promise((resolve) => server.close(resolve));
seen.closed = await api.close();

const cryptoOnly = await buildUseCases({
  families: ['crypto'],
  storage: 'memory',
  encryption: { key: randomBytes(32).toString('base64') },
  log: { level: 'silent' },
});
seen.httpWithoutTokens = await refusal(() => createHttpApp(cryptoOnly));
await cryptoOnly.close();

console.log(JSON.stringify(seen));
