import { expect } from 'chai';
import { MemoryPasswords } from '../../src/families/users-and-tokens/adapters/memory/memory-passwords.js';
import { MemoryTables } from '../../src/families/users-and-tokens/adapters/memory/memory-tables.js';
import { MemoryTokenStore } from '../../src/families/users-and-tokens/adapters/memory/memory-token-store.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import { actorFor, OPERATOR } from '../../src/domain/identity/actor.js';
import { systemRandomness } from '../../src/platform/randomness/system-randomness.js';
import { IssueToken } from '../../src/families/users-and-tokens/domain/tokens/issue-token.js';
import { parseRateLimit } from '../../src/domain/identity/rate-limit.js';
import type { TokenRecord } from '../../src/domain/identity/token.js';
import { CreateUser } from '../../src/families/users-and-tokens/domain/users/create-user.js';
import { ManualClock } from '../support/manual-clock.js';
import { parseDuration } from '../../src/families/users-and-tokens/domain/tokens/duration.js';
import {
  hashSecret,
  issueLicense,
  issueSecret,
  looksLikeSecret,
} from '../../src/families/users-and-tokens/domain/tokens/secret.js';
import { domainFixture } from '../support/domain-fixtures.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { SERVICE_PERMISSIONS } from '../support/permissions.js';

describe('domain: issuing tokens', () => {
  it('makes a prefixed, checksummed secret of 32 random bytes and stores only its SHA-256', async () => {
    const f = domainFixture();
    const { secret, record } = await f.userWithToken('alice', ['Cryptography::*']);
    expect(secret).to.match(/^uapi_[0-9A-Za-z]{49}$/);
    // 43 base62 digits hold 256 bits, no more: the largest 32-byte value needs all of them.
    expect(BigInt(62) ** BigInt(43) > BigInt(2) ** BigInt(256)).to.equal(true);
    expect(record.secretHash)
      .to.equal(hashSecret(secret))
      .and.to.match(/^[0-9a-f]{64}$/);
    expect(secret.startsWith(record.prefix)).to.equal(true);
    expect(JSON.stringify(await f.tokens.findById(record.id))).not.to.include(secret.slice(record.prefix.length));
  });

  it("defaults the token's scopes to its user's permissions", async () => {
    const f = domainFixture();
    const { record } = await f.userWithToken('alice', ['Cryptography::Encrypt', 'Cryptography::Decrypt']);
    expect(record.scopes).to.deep.equal(['Cryptography::Encrypt', 'Cryptography::Decrypt']);
  });

  it('narrows a token below its user and refuses to widen it, wildcards included', async () => {
    const f = domainFixture();
    expectRight(
      await f.createUser.execute({ actor: OPERATOR, username: 'alice', permissions: ['Cryptography::Encrypt'] }),
    );
    expectRight(
      await f.issueToken.execute({ actor: OPERATOR, owner: { username: 'alice' }, scopes: ['Cryptography::Encrypt'] }),
    );
    for (const scopes of [['Cryptography::*'], ['*'], ['Cryptography::Decrypt']]) {
      expectLeftTag(
        await f.issueToken.execute({ actor: OPERATOR, owner: { username: 'alice' }, scopes }),
        'NotAuthorized',
      );
    }
    expect(await f.tokens.listByUser((await f.users.findByUsername('alice'))!.id)).to.have.length(1);
  });

  it('refuses unknown permission names and unknown users', async () => {
    const f = domainFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'alice', permissions: ['*'] }));
    expectLeftTag(
      await f.issueToken.execute({ actor: OPERATOR, owner: { username: 'alice' }, scopes: ['Cryptograpy::*'] }),
      'InvalidInput',
    );
    expectLeftTag(await f.issueToken.execute({ actor: OPERATOR, owner: { username: 'bob' } }), 'UserNotFound');
  });

  it('sets the expiry from the requested lifetime', async () => {
    const f = domainFixture();
    const { record } = await f.userWithToken('alice', ['*'], undefined, 30 * 86_400_000);
    expect(record.expiresAt).to.equal(f.clock.now() + 30 * 86_400_000);
  });

  it('gives every token a distinct grouped base32 licence', () => {
    const licences = new Set(Array.from({ length: 200 }, () => issueLicense(systemRandomness)));
    expect(licences.size).to.equal(200);
    for (const licence of licences) expect(licence).to.match(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
  });

  it('recognises only well-formed secrets', () => {
    expect(looksLikeSecret(issueSecret(systemRandomness).secret)).to.equal(true);
    for (const bad of ['', 'uapi_', 'uapi_short', `uapi_${'a'.repeat(43)} `, `Bearer uapi_${'a'.repeat(43)}`]) {
      expect(looksLikeSecret(bad), bad).to.equal(false);
    }
  });

  it('refuses a secret with one character changed, swapped or cut, by its checksum alone', () => {
    for (let round = 0; round < 50; round += 1) {
      const { secret } = issueSecret(systemRandomness);
      const at = 5 + (round % 49);
      const changed = secret.slice(0, at) + (secret[at] === 'a' ? 'b' : 'a') + secret.slice(at + 1);
      const swapped = secret.slice(0, at - 1) + secret[at] + secret[at - 1] + secret.slice(at + 1);
      expect(looksLikeSecret(changed), changed).to.equal(false);
      if (swapped !== secret) expect(looksLikeSecret(swapped), swapped).to.equal(false);
      expect(looksLikeSecret(secret.slice(0, -1)), 'cut').to.equal(false);
    }
  });

  it('still recognises a secret of the shape issued before checksums', () => {
    const legacy = `uapi_${systemRandomness.bytes(32).toString('base64url')}`;
    expect(looksLikeSecret(legacy)).to.equal(true);
  });

  it('gives a token a rate limit of its own only within its issuer’s: no larger burst, no faster rate; the operator may give any', async () => {
    const clock = new ManualClock();
    const tables = new MemoryTables();
    const users = new MemoryUserStore(tables);
    const tokens = new MemoryTokenStore(tables);
    const issueToken = new IssueToken(users, tokens, clock, systemRandomness, SERVICE_PERMISSIONS, {
      requests: 1000,
      perSeconds: 10,
    });
    expectRight(
      await new CreateUser(users, clock, systemRandomness, new MemoryPasswords(), SERVICE_PERMISSIONS).execute({
        actor: OPERATOR,
        username: 'alice',
        permissions: ['*'],
      }),
    );
    const byOperator = expectRight(
      await issueToken.execute({
        actor: OPERATOR,
        owner: { username: 'alice' },
        rateLimit: { requests: 5000, perSeconds: 1 },
      }),
    );
    expect(byOperator.record.rateLimit).to.deep.equal({ requests: 5000, perSeconds: 1 });
    const plain = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username: 'alice' } }));
    expect(plain.record.rateLimit).to.equal(null);
    const holder = (record: TokenRecord) => actorFor({ token: record, user: plain.user, issuer: null });

    // Under the default policy, 1000 per 10 s.
    for (const within of [
      { requests: 1000, perSeconds: 10 },
      { requests: 100, perSeconds: 1 },
      { requests: 1, perSeconds: 86_400 },
    ]) {
      expect(
        expectRight(
          await issueToken.execute({ actor: holder(plain.record), owner: { username: 'alice' }, rateLimit: within }),
        ).record.rateLimit,
      ).to.deep.equal(within);
    }
    for (const beyond of [
      { requests: 1001, perSeconds: 10 },
      { requests: 1000, perSeconds: 9 },
      { requests: 101, perSeconds: 1 },
    ]) {
      const refused = await issueToken.execute({
        actor: holder(plain.record),
        owner: { username: 'alice' },
        rateLimit: beyond,
      });
      expect(refused).to.deep.equal({
        _tag: 'Left',
        left: {
          _tag: 'InvalidInput',
          fields: ['rateLimit'],
          reason: 'rateLimit may not exceed your own, 1000 requests per 10 s',
        },
      });
    }
    // A token's own limit is its ceiling, and what the tokens it issues get unless they ask for less.
    const narrow = expectRight(
      await issueToken.execute({
        actor: OPERATOR,
        owner: { username: 'alice' },
        rateLimit: { requests: 10, perSeconds: 60 },
      }),
    );
    expect(
      expectRight(await issueToken.execute({ actor: holder(narrow.record), owner: { username: 'alice' } })).record
        .rateLimit,
    ).to.deep.equal({ requests: 10, perSeconds: 60 });
    expectLeftTag(
      await issueToken.execute({
        actor: holder(narrow.record),
        owner: { username: 'alice' },
        rateLimit: { requests: 11, perSeconds: 60 },
      }),
      'InvalidInput',
    );
    // A big limit of its own lifts a token above the default.
    expectRight(
      await issueToken.execute({
        actor: holder(byOperator.record),
        owner: { username: 'alice' },
        rateLimit: { requests: 4000, perSeconds: 1 },
      }),
    );
  });

  it('reads rate limit policies written as <requests>/<seconds>, within a billion requests and a day', () => {
    expect(parseRateLimit('1000/10')).to.deep.equal({ requests: 1000, perSeconds: 10 });
    expect(parseRateLimit('1000000000/86400')).to.deep.equal({ requests: 1_000_000_000, perSeconds: 86_400 });
    for (const bad of ['', 'off', '0/10', '10/0', '010/10', '1000000001/1', '1/86401', '1000 / 10', '1e3/10', '-1/10'])
      expect(parseRateLimit(bad), bad).to.equal(undefined);
  });

  it('parses lifetimes like 90s, 15m, 12h, 30d, 2w, 1y and nothing else, up to ten years', () => {
    expect(parseDuration('90s')).to.equal(90_000);
    expect(parseDuration('15m')).to.equal(900_000);
    expect(parseDuration('12h')).to.equal(43_200_000);
    expect(parseDuration('30d')).to.equal(2_592_000_000);
    expect(parseDuration('2w')).to.equal(1_209_600_000);
    expect(parseDuration('1y')).to.equal(365 * 86_400_000);
    expect(parseDuration('10y')).to.equal(3650 * 86_400_000);
    // Refused, not trimmed: the rule reads the text as sent (a byte-order mark once passed as 90d).
    for (const bad of [
      '',
      '0d',
      '30',
      'd',
      '11y',
      '1Y',
      '0y',
      '-1d',
      '1.5h',
      '99999w',
      '1yr',
      ' 30d',
      '30d\n',
      '\ufeff90d',
    ])
      expect(parseDuration(bad), bad).to.equal(undefined);
  });
});

describe('domain: users', () => {
  it('creates a user with a normalised username and permissions without duplicates', async () => {
    const f = domainFixture();
    const user = expectRight(
      await f.createUser.execute({ actor: OPERATOR, username: 'Alice', permissions: ['*', '*'] }),
    );
    expect(user.username).to.equal('alice');
    expect(user.permissions).to.deep.equal(['*']);
    expect(user.blocked).to.equal(false);
  });

  it('refuses a taken username with Conflict and leaves the first user as it was', async () => {
    const f = domainFixture();
    const first = expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'alice', permissions: ['*'] }));
    expectLeftTag(await f.createUser.execute({ actor: OPERATOR, username: 'ALICE' }), 'Conflict');
    expect(await f.users.findByUsername('alice')).to.deep.equal(first);
  });

  it('refuses malformed usernames and unknown permissions', async () => {
    const f = domainFixture();
    for (const username of ['', 'a', 'has space', 'x'.repeat(33), '-lead']) {
      expectLeftTag(await f.createUser.execute({ actor: OPERATOR, username }), 'InvalidInput');
    }
    expectLeftTag(
      await f.createUser.execute({ actor: OPERATOR, username: 'bob', permissions: ['Nope::*'] }),
      'InvalidInput',
    );
    expect(await f.users.findByUsername('bob')).to.equal(undefined);
  });

  it('blocking an unknown user answers UserNotFound', async () => {
    const f = domainFixture();
    expectLeftTag(await f.updateUser.execute(OPERATOR, { username: 'ghost' }, { blocked: true }), 'UserNotFound');
  });
});
