import { expect } from 'chai';
import { ManualClock } from '../support/manual-clock.js';
import { MemoryTables } from '../../src/adapters/persistence/memory/memory-tables.js';
import { MemoryTokenStore } from '../../src/adapters/persistence/memory/memory-token-store.js';
import { MemoryUserStore } from '../../src/adapters/persistence/memory/memory-user-store.js';
import { CountedLoginThrottle } from '../../src/adapters/rate-limit/counted-login-throttle.js';
import { memoryCounters } from '../../src/adapters/rate-limit/counters.js';
import { OPERATOR } from '../../src/domain/auth/actor.js';
import { LogInWithPassword } from '../../src/domain/auth/log-in-with-password.js';
import { LOGIN_THROTTLE_POLICY } from '../../src/domain/auth/login-throttle.js';
import { IssueToken, PASSWORD_TOKEN_LIFETIME_MS } from '../../src/domain/tokens/issue-token.js';
import { CreateUser } from '../../src/domain/users/create-user.js';
import { ScryptPasswords } from '../../src/domain/users/password.js';
import { expectLeftTag, expectRight } from '../support/either.js';

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
  const users = new MemoryUserStore(tables);
  const verifier = new WatchedPasswords(TEST_COST);
  const logIn = new LogInWithPassword(users, new CountedLoginThrottle(memoryCounters, LOGIN_THROTTLE_POLICY), verifier, clock);
  const createUser = new CreateUser(users, clock, undefined, verifier);
  const issueToken = new IssueToken(users, new MemoryTokenStore(tables), clock);
  const attempt = (login: string, password: string, clientAddress = '192.0.2.1') => logIn.execute({ login, password, clientAddress });
  return { clock, users, verifier, createUser, issueToken, attempt };
}

/** scheme, N, r and p of a stored hash: what decides what verifying against it costs. */
const costOf = (hash: string) => hash.split('$').slice(0, 4);

describe('domain: logging in with a password', () => {
  it('knows a user by username or email in any case, as an actor holding what the user holds', async () => {
    const f = loginFixture();
    const ada = expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', email: 'Ada@Example.com', password: PASSWORD, permissions: ['Cryptography::*'] }));
    for (const login of ['ada', 'ADA', 'ada@example.com', 'Ada@EXAMPLE.com']) {
      expect(expectRight(await f.attempt(login, PASSWORD))).to.deep.equal({ kind: 'password', user: ada });
    }
    const actor = expectRight(await f.attempt('ada', PASSWORD));
    const issued = expectRight(await f.issueToken.execute({ actor, owner: { self: true } }));
    expect(issued.record).to.deep.include({ userId: ada.id, scopes: ['Cryptography::*'], issuedBy: null, expiresAt: f.clock.now() + PASSWORD_TOKEN_LIFETIME_MS });
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

  it('throttles an account after 5 failures without verifying again, a success clearing its count', async () => {
    const f = loginFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', email: 'ada@example.com', password: PASSWORD }));
    for (let i = 0; i < 4; i++) expectLeftTag(await f.attempt(i % 2 ? 'ada' : 'ada@example.com', 'wrong', `192.0.2.${i}`), 'InvalidApiKey');
    expectRight(await f.attempt('ada', PASSWORD, '192.0.2.9'));
    for (let i = 0; i < 5; i++) expectLeftTag(await f.attempt(i % 2 ? 'ada' : 'ada@example.com', 'wrong', `192.0.2.${i}`), 'InvalidApiKey');
    const verified = f.verifier.checkedAgainst.length;
    // From another address, with the right password, by email or by name: the account waits.
    expect(expectLeftTag(await f.attempt('ada', PASSWORD, '198.51.100.1'), 'RateLimited')).to.deep.equal({ _tag: 'RateLimited', retryAfterSeconds: 60 });
    expectLeftTag(await f.attempt('ADA@example.com', PASSWORD, '198.51.100.1'), 'RateLimited');
    expect(f.verifier.checkedAgainst).to.have.length(verified);
    f.clock.advance(60_000);
    expectLeftTag(await f.attempt('ada', 'wrong again', '198.51.100.1'), 'InvalidApiKey');
    expect(expectLeftTag(await f.attempt('ada', PASSWORD, '198.51.100.1'), 'RateLimited')).to.deep.equal({ _tag: 'RateLimited', retryAfterSeconds: 120 });
  });

  it('throttles a client address after 5 failures whichever accounts it tries, known or not', async () => {
    const f = loginFixture();
    expectRight(await f.createUser.execute({ actor: OPERATOR, username: 'ada', password: PASSWORD }));
    for (const login of ['bob', 'carol', 'dave', 'erin', 'frank']) expectLeftTag(await f.attempt(login, 'guess', '203.0.113.7'), 'InvalidApiKey');
    expectLeftTag(await f.attempt('ada', PASSWORD, '203.0.113.7'), 'RateLimited');
    expectRight(await f.attempt('ada', PASSWORD, '203.0.113.8'));
  });
});
