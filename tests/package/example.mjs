import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buildUseCases } from 'utility-api';
import { OPERATOR, Permission } from 'utility-api/domain';

const api = await buildUseCases({
  families: ['crypto', 'usersAndTokens'],
  storage: 'memory', // or 'sqlite' (with dataDir or database.sqliteFile), or 'postgres' (with database.url)
  encryption: { key: randomBytes(32).toString('base64') }, // keep yours: it decrypts what it encrypted
  log: { level: 'warn' },
});
const { encryptText, decryptText } = api.useCases.crypto;
const { createUser, issueToken, authenticate } = api.useCases.usersAndTokens;

// Every use case answers { _tag: 'Right', right } or { _tag: 'Left', left: <catalogue error> }.
const ciphertext = encryptText.execute('hello');
assert.equal(ciphertext._tag, 'Right');
assert.deepEqual(decryptText.execute(ciphertext.right), { _tag: 'Right', right: 'hello' });
assert.equal(decryptText.execute('garbage').left._tag, 'DecryptionFailed');

// OPERATOR acts as the CLI does, holding every permission.
const ada = await createUser.execute({
  actor: OPERATOR,
  username: 'ada',
  permissions: [Permission.CryptographyEncrypt],
});
assert.equal(ada.right.username, 'ada');
const token = await issueToken.execute({ actor: OPERATOR, owner: { username: 'ada' } });
const verified = await authenticate.execute(token.right.secret, Permission.CryptographyEncrypt);
assert.equal(verified.right.user.username, 'ada');
const refused = await authenticate.execute(token.right.secret, Permission.CryptographyDecrypt);
assert.deepEqual(refused.left, { _tag: 'NotAuthorized', permission: 'Cryptography::Decrypt' });

await api.close();
console.log(`hello → ${ciphertext.right.length} characters → hello; ada's token may encrypt, not decrypt`);
