import { expect } from 'chai';
import { ManualClock } from '../support/manual-clock.js';
import { SeededRandomness } from '../support/seeded-randomness.js';
import { MemoryTables } from '../../src/families/users-and-tokens/adapters/memory/memory-tables.js';
import { MemoryTokenStore } from '../../src/families/users-and-tokens/adapters/memory/memory-token-store.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import { CountedLoginThrottle } from '../../src/families/users-and-tokens/adapters/counted-login-throttle.js';
import { memoryCounters } from '../../src/platform/rate-limit/counters.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { LogInWithPassword } from '../../src/families/users-and-tokens/domain/auth/log-in-with-password.js';
import { MemoryAuditTrail } from '../../src/platform/audit/memory-audit-trail.js';
import {
  ACCOUNT_SLOWDOWN,
  loginThrottlePolicies,
  policyOfKey,
} from '../../src/families/users-and-tokens/domain/auth/login-throttle.js';
import {
  IssueToken,
  PASSWORD_TOKEN_LIFETIME_MS,
} from '../../src/families/users-and-tokens/domain/tokens/issue-token.js';
import { CreateUser } from '../../src/families/users-and-tokens/domain/users/create-user.js';
import { ScryptPasswords } from '../../src/families/users-and-tokens/adapters/scrypt-passwords.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { SERVICE_PERMISSIONS } from '../support/permissions.js';

const PASSWORD = 'correct horse battery';

/** Real scrypt at a test's cost, with a record of the hashes it was asked to check against. */
class WatchedPasswords extends ScryptPasswords {
  readonly checkedAgainst: string[] = [];
  override async verify(password: string, storedHash: string): Promise<boolean> {
    this.checkedAgainst.push(storedHash);
    return super.verify(password, storedHash);
  }
}
const TEST_COST = 10;

function loginFixture() {
  const clock = new ManualClock();
  const tables = new MemoryTables();
  const trail = new MemoryAuditTrail();
  const users = new MemoryUserStore(tables, trail);
  const verifier = new WatchedPasswords(TEST_COST);
  const pauses: number[] = [];
  const throttle = new CountedLoginThrottle(memoryCounters, policyOfKey(loginThrottlePolicies(10)));
  const logIn = new LogInWithPassword(
    users,
    throttle,
    verifier,
    clock,
    trail,
    ACCOUNT_SLOWDOWN,
    async (ms) => void pauses.push(ms),
  );
  const createUser = new CreateUser(users, clock, new SeededRandomness('log in'), verifier, SERVICE_PERMISSIONS);
  const issueToken = new IssueToken(
    users,
    new MemoryTokenStore(tables),
    clock,
    new SeededRandomness('log in tokens'),
    SERVICE_PERMISSIONS,
  );
  const attempt = (login: string, password: string, clientAddress = '192.0.2.1') =>
    logIn.execute({ login, password, clientAddress });
  return { clock, users, verifier, createUser, issueToken, attempt, pauses, trail, logIn };
}

/** scheme, N, r and p of a stored hash: what decides what verifying against it costs. */
const costOf = (hash: string) => hash.split('$').slice(0, 4);

describe('domain: logging in with a password', () => {
  it('knows a user by username or email in any case, as an actor holding what the user holds', async () => {
    const f = loginFixture();
    const ada = expectRight(
      await f.createUser.execute({
        actor: OPERATOR,
        username: 'ada',
        email: 'Ada@Example.com',
        password: PASSWORD,
        permissions: ['Cryptography::*'],
      }),
    );
    for (const login of ['ada', 'ADA', 'ada@example.com', 'Ada@EXAMPLE.com']) {
      expect(expectRight(await f.attempt(login, PASSWORD))).to.deep.equal({ kind: 'password', user: ada });
    }
    const actor = expectRight(await f.attempt('ada', PASSWORD));
    const issued = expectRight(await f.issueToken.execute({ actor, owner: { self: true } }));
    expect(issued.record).to.deep.include({
      userId: ada.id,
      scopes: ['Cryptography::*'],
      issuedBy: null,
      expiresAt: f.clock.now() + PASSWORD_TOKEN_LIFETIME_MS,
    });
    // A password proves who you are, nothing more: it acts on nobody else.
    const other = expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'bob', permissions: [] }));
    expectLeftTag(await f.issueToken.execute({ actor, owner: { uid: other.uid } }), 'NotAuthorized');
  });

  it('answers a wrong password, an unknown user and a user without a password alike, after the same scrypt verification', async () => {
    const f = loginFixture();
    const ada = expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'nopass' }));
    const wrong = await f.attempt('ada', 'not the password');
    const unknown = await f.attempt('nobody', PASSWORD);
    const passwordless = await f.attempt('nopass', PASSWORD);
    expect([wrong, unknown, passwordless]).to.deep.equal([wrong, wrong, wrong]);
    expectLeftTag(wrong, 'InvalidApiKey');
    // Each attempt verified once, the unknown and the passwordless against a hash of the same cost as ada's.
    expect(f.verifier.checkedAgainst).to.have.length(3);
    const [real, dummyForUnknown, dummyForPasswordless] = f.verifier.checkedAgainst as [string, string, string];
    expect(real).to.equal(ada.passwordHash);
    expect(costOf(dummyForUnknown)).to.deep.equal(costOf(ada.passwordHash!));
    expect(dummyForPasswordless).to.equal(dummyForUnknown);
  });

  it('tells a blocked user so only once the password is right', async () => {
    const f = loginFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    const ada = (await f.users.findByUsername('ada'))!;
    await f.users.update(ada.id, { blocked: true }, f.clock.now());
    expectLeftTag(await f.attempt('ada', 'not the password'), 'InvalidApiKey');
    expectLeftTag(await f.attempt('ada', PASSWORD), 'Blocked');
  });

  it('writes each attempt whose password was checked to the audit trail, but none the throttle refused before checking', async () => {
    const f = loginFixture();
    const ada = expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    const origin = { address: '203.0.113.9', requestId: 'r-1' };
    const login = (name: string, password: string) =>
      f.logIn.execute({ login: name, password, clientAddress: '203.0.113.9', origin });
    expect(expectRight(await login('ADA', PASSWORD))).to.deep.equal({ kind: 'password', user: ada, origin });
    expectLeftTag(await login('ada', 'not the password'), 'InvalidApiKey');
    expectLeftTag(await login('Nobody', PASSWORD), 'InvalidApiKey');
    await f.users.update(ada.id, { blocked: true }, f.clock.now());
    expectLeftTag(await login('ada', PASSWORD), 'Blocked');
    const nobody = { uid: null, username: null, tokenId: null, via: 'http' };
    const proved = { uid: ada.uid, username: 'ada', tokenId: null, via: 'http' };
    const entries = (await f.trail.list({ limit: 10, action: 'login.password' })).reverse();
    expect(
      entries.map(({ actor, target, outcome, address, requestId, concerns, at }) => ({
        actor,
        target,
        outcome,
        address,
        requestId,
        concerns,
        at,
      })),
    ).to.deep.equal([
      {
        actor: proved,
        target: { type: 'user', id: ada.uid, label: 'ada' },
        outcome: 'success',
        ...origin,
        concerns: ada.id,
        at: f.clock.now(),
      },
      {
        actor: nobody,
        target: { type: 'user', id: ada.uid, label: 'ada' },
        outcome: 'failure',
        ...origin,
        concerns: ada.id,
        at: f.clock.now(),
      },
      {
        actor: nobody,
        target: { type: 'user', id: null, label: 'nobody' },
        outcome: 'failure',
        ...origin,
        concerns: null,
        at: f.clock.now(),
      },
      {
        actor: proved,
        target: { type: 'user', id: ada.uid, label: 'ada' },
        outcome: 'failure',
        ...origin,
        concerns: ada.id,
        at: f.clock.now(),
      },
    ]);
    for (let i = 0; i < 5; i++) await login('ada', 'wrong again');
    const written = (await f.trail.list({ limit: 100 })).length;
    expectLeftTag(await login('ada', PASSWORD), 'RateLimited');
    expect(await f.trail.list({ limit: 100 })).to.have.length(written);
  });

  it('makes an account wait after 5 failures from one address, without verifying again; from other addresses it is slowed down, never refused', async () => {
    const f = loginFixture();
    expectRight(
      await f.createUser.execute({ actor: OPERATOR, username: 'ada', email: 'ada@example.com', password: PASSWORD }),
    );
    for (let i = 0; i < 5; i++)
      expectLeftTag(await f.attempt(i % 2 ? 'ada' : 'ada@example.com', 'wrong', '203.0.113.7'), 'InvalidApiKey');
    const verified = f.verifier.checkedAgainst.length;
    // From that address, with the right password, by email or by name: it waits.
    expect(expectLeftTag(await f.attempt('ada', PASSWORD, '203.0.113.7'), 'RateLimited')).to.deep.equal({
      _tag: 'RateLimited',
      retryAfterSeconds: 60,
    });
    expectLeftTag(await f.attempt('ADA@example.com', PASSWORD, '203.0.113.7'), 'RateLimited');
    expect(f.verifier.checkedAgainst).to.have.length(verified);
    expect(f.pauses).to.deep.equal([]);
    // From an address that has not failed for it: the right password works, after a pause.
    expectRight(await f.attempt('ada', PASSWORD, '198.51.100.1'));
    expect(f.pauses).to.deep.equal([ACCOUNT_SLOWDOWN.firstDelayMs]);
    f.clock.advance(60_000);
    expectLeftTag(await f.attempt('ada', 'wrong again', '203.0.113.7'), 'InvalidApiKey');
    expect(expectLeftTag(await f.attempt('ada', PASSWORD, '203.0.113.7'), 'RateLimited')).to.deep.equal({
      _tag: 'RateLimited',
      retryAfterSeconds: 120,
    });
  });

  it('checks at most 5 of many attempts made at once from one address: each is counted before its password is checked', async () => {
    const f = loginFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => f.attempt('ada', `guess ${i}`, '203.0.113.9')),
    );
    const tags = outcomes.map((outcome) => (outcome._tag === 'Left' ? outcome.left._tag : 'success'));
    expect(tags.filter((tag) => tag === 'InvalidApiKey')).to.have.length(5);
    expect(tags.filter((tag) => tag === 'RateLimited')).to.have.length(25);
    expect(f.verifier.checkedAgainst).to.have.length(5);
    // The right password from that address, once it is counted, is taken back: the owner elsewhere is not held to it.
    expectRight(await f.attempt('ada', PASSWORD, '198.51.100.9'));
  });

  it('slows an account failing from many addresses more with every failure, up to the longest pause, and never refuses it', async () => {
    const f = loginFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    for (let i = 0; i < 40; i++) expectLeftTag(await f.attempt('ada', 'guess', `192.0.2.${i}`), 'InvalidApiKey');
    expect(f.pauses.slice(0, 6)).to.deep.equal([250, 500, 1000, 2000, 4000, 5000]);
    expect(Math.max(...f.pauses)).to.equal(ACCOUNT_SLOWDOWN.maxDelayMs);
    expectRight(await f.attempt('ada', PASSWORD, '198.51.100.1'));
  });

  it('makes a client address wait only after perAddress failures over all accounts, known or not', async () => {
    const f = loginFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    for (let i = 0; i < 9; i++) expectLeftTag(await f.attempt(`guess${i}`, 'guess', '203.0.113.7'), 'InvalidApiKey');
    expectRight(await f.attempt('ada', PASSWORD, '203.0.113.7'));
    expectLeftTag(await f.attempt('bob', 'guess', '203.0.113.7'), 'InvalidApiKey');
    expectLeftTag(await f.attempt('ada', PASSWORD, '203.0.113.7'), 'RateLimited');
    expectRight(await f.attempt('ada', PASSWORD, '203.0.113.8'));
  });
});
