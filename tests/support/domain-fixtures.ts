import { MemoryAccessChangeFeed } from '../../src/platform/access-changes/memory-access-change-feed.js';
import { AccessChanges } from '../../src/families/users-and-tokens/domain/auth/access-changes.js';
import { ManualClock } from './manual-clock.js';
import { SeededRandomness } from './seeded-randomness.js';
import { MemoryPasswords } from '../../src/families/users-and-tokens/adapters/memory/memory-passwords.js';
import { MemoryTables } from '../../src/families/users-and-tokens/adapters/memory/memory-tables.js';
import { MemoryTokenStore } from '../../src/families/users-and-tokens/adapters/memory/memory-token-store.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { Authenticate } from '../../src/families/users-and-tokens/domain/auth/authenticate.js';
import { TokenUsageMeter } from '../../src/families/users-and-tokens/domain/tokens/usage-meter.js';
import { VerifiedTokenCache } from '../../src/families/users-and-tokens/domain/auth/verified-token-cache.js';
import { IssueToken } from '../../src/families/users-and-tokens/domain/tokens/issue-token.js';
import { CreateUser } from '../../src/families/users-and-tokens/domain/users/create-user.js';
import { UpdateUser } from '../../src/families/users-and-tokens/domain/users/manage-users.js';
import { expectRight } from './either.js';
import { SERVICE_PERMISSIONS } from './permissions.js';

export const CACHE_TTL_MS = 5_000;

/** The auth and management use cases over in-memory adapters and a clock the test moves. */
export function domainFixture() {
  const clock = new ManualClock();
  const tables = new MemoryTables();
  const users = new MemoryUserStore(tables);
  const tokens = new MemoryTokenStore(tables);
  const cache = new VerifiedTokenCache(clock, CACHE_TTL_MS);
  const randomness = new SeededRandomness('domain fixture');
  const passwords = new MemoryPasswords();
  const createUser = new CreateUser(users, clock, randomness, passwords, SERVICE_PERMISSIONS);
  const usage = new TokenUsageMeter(tokens);
  const issueToken = new IssueToken(users, tokens, clock, randomness, SERVICE_PERMISSIONS);
  return {
    clock,
    users,
    tokens,
    cache,
    createUser,
    issueToken,
    usage,
    updateUser: new UpdateUser(
      users,
      clock,
      new AccessChanges(cache, new MemoryAccessChangeFeed()),
      passwords,
      SERVICE_PERMISSIONS,
    ),
    authenticate: new Authenticate(tokens, users, clock, cache, usage),
    /** A user holding `permissions` and a token for it, optionally narrowed to `scopes`. */
    async userWithToken(username: string, permissions: string[], scopes?: string[], expiresInMs?: number) {
      const user = expectRight(await createUser.execute({ actor: OPERATOR, username, permissions }));
      const issued = expectRight(
        await issueToken.execute({ actor: OPERATOR, owner: { username }, scopes, expiresInMs }),
      );
      return { user, secret: issued.secret, record: issued.record };
    },
  };
}
