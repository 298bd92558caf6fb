import { ContainerModule } from 'inversify';
import { tokenRoutes } from './token-routes.js';
import { userRoutes } from './user-routes.js';
import { AccessChanges } from './domain/auth/access-changes.js';
import { Authenticate } from './domain/auth/authenticate.js';
import { LogInWithPassword } from './domain/auth/log-in-with-password.js';
import { AccessChangeFeed } from '../../domain/identity/access-changes.js';
import { LoginThrottle } from './domain/auth/ports.js';
import { VerifiedTokenCache } from './domain/auth/verified-token-cache.js';
import { Clock, Randomness } from '../../domain/ports.js';
import { PermissionCatalogue } from '../../domain/permissions.js';
import { IssueToken } from './domain/tokens/issue-token.js';
import { RevokeToken, TokenReader, UpdateToken } from './domain/tokens/manage-tokens.js';
import { TokenStore } from './domain/tokens/ports.js';
import { RotateToken } from './domain/tokens/rotate-token.js';
import { IpClientNetworks } from './adapters/ip-client-networks.js';
import type { RateLimit } from '../../domain/identity/rate-limit.js';
import { TokenUsageMeter } from './domain/tokens/usage-meter.js';
import { CreateUser } from './domain/users/create-user.js';
import { DeleteUser, GetUser, UpdateUser } from './domain/users/manage-users.js';
import { ListUsers } from './domain/users/list-users.js';
import { ScryptPasswords } from './adapters/scrypt-passwords.js';
import { Passwords, UserStore } from './domain/users/ports.js';
import {
  InMemoryAuditTrail,
  Log,
  RouteContribution,
  SharedCounters,
  SqlStorage,
  useCasesIdentifier,
} from '../../wiring/identifiers.js';
import { AuditTrail } from '../../domain/audit.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { CountedLoginThrottle } from './adapters/counted-login-throttle.js';
import { KnexTokenStore } from './adapters/knex/knex-token-store.js';
import { KnexUserStore } from './adapters/knex/knex-user-store.js';
import { MemoryTables } from './adapters/memory/memory-tables.js';
import { MemoryTokenStore } from './adapters/memory/memory-token-store.js';
import { MemoryUserStore } from './adapters/memory/memory-user-store.js';
import { loginThrottlePolicies, policyOfKey } from './domain/auth/login-throttle.js';
import { AccessChangeListener } from './access-change-listener.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { PeriodicFlush } from '../../platform/periodic-flush.js';

export interface UsersAndTokensSettings {
  readonly verifiedTokenTtlMs: number;
  readonly usageFlushIntervalMs: number;
  /** log2 of scrypt's N for new password hashes. */
  readonly passwordCost: number;
  /** The policy of tokens without a limit of their own: no token issues one above its own. */
  readonly defaultRateLimit: RateLimit | null;
  /** Unexpired tokens one user may hold, whoever issues them. */
  readonly maxTokensPerUser: number;
  readonly loginThrottle: {
    /** Failed logins one client address may make over all accounts before it waits. */
    readonly perAddress: number;
  };
}

/** What the family offers a library user: managing users and tokens, and checking a presented token or password. */
export interface UsersAndTokensUseCases {
  readonly createUser: CreateUser;
  readonly getUser: GetUser;
  readonly listUsers: ListUsers;
  readonly updateUser: UpdateUser;
  readonly deleteUser: DeleteUser;
  readonly issueToken: IssueToken;
  readonly tokenReader: TokenReader;
  readonly revokeToken: RevokeToken;
  readonly updateToken: UpdateToken;
  readonly rotateToken: RotateToken;
  readonly authenticate: Authenticate;
  readonly logInWithPassword: LogInWithPassword;
}
export const UsersAndTokensUseCases = useCasesIdentifier<UsersAndTokensUseCases>('UsersAndTokensUseCases');

/**
 * Users, their tokens and passwords, and the authentication every other family relies on. The
 * login throttle is the limits module's, which counts it where it counts request rates.
 */
export const usersAndTokensModule = (settings: UsersAndTokensSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    const tables = new MemoryTables();
    // On memory storage the stores append their changes' entries to the shared in-memory trail.
    provide(UserStore, [SqlStorage, InMemoryAuditTrail], (sql, trail) =>
      sql ? sql.inTime(new KnexUserStore(sql.db)) : new MemoryUserStore(tables, trail ?? undefined),
    ).inSingletonScope();
    provide(TokenStore, [SqlStorage, InMemoryAuditTrail], (sql, trail) =>
      sql ? sql.inTime(new KnexTokenStore(sql.db)) : new MemoryTokenStore(tables, trail ?? undefined),
    ).inSingletonScope();
    provide(
      LoginThrottle,
      [SharedCounters],
      (counters) =>
        new CountedLoginThrottle(counters, policyOfKey(loginThrottlePolicies(settings.loginThrottle.perAddress))),
    ).inSingletonScope();
    provide(
      VerifiedTokenCache,
      [Clock],
      (clock) => new VerifiedTokenCache(clock, settings.verifiedTokenTtlMs),
    ).inSingletonScope();
    provide(
      AccessChanges,
      [VerifiedTokenCache, AccessChangeFeed],
      (cache, feed) => new AccessChanges(cache, feed),
    ).inSingletonScope();
    provide(TokenUsageMeter, [TokenStore], (tokens) => new TokenUsageMeter(tokens)).inSingletonScope();
    constant(Passwords, new ScryptPasswords(settings.passwordCost));
    provide(
      UsersAndTokensUseCases,
      [
        UserStore,
        TokenStore,
        LoginThrottle,
        Passwords,
        VerifiedTokenCache,
        AccessChanges,
        TokenUsageMeter,
        Clock,
        Randomness,
        PermissionCatalogue,
        AuditTrail,
      ],
      (users, tokens, throttle, passwords, cache, changes, usage, clock, randomness, permissions, trail) => {
        const tokenReader = new TokenReader(tokens, users, usage);
        const networks = new IpClientNetworks();
        return {
          createUser: new CreateUser(users, clock, randomness, passwords, permissions),
          getUser: new GetUser(users),
          listUsers: new ListUsers(users, permissions),
          updateUser: new UpdateUser(users, clock, changes, passwords, permissions),
          deleteUser: new DeleteUser(users, changes, clock),
          issueToken: new IssueToken(
            users,
            tokens,
            clock,
            randomness,
            permissions,
            settings.defaultRateLimit,
            settings.maxTokensPerUser,
            networks,
          ),
          tokenReader,
          revokeToken: new RevokeToken(tokens, tokenReader, changes, clock),
          updateToken: new UpdateToken(tokens, tokenReader, changes, users, clock, networks),
          rotateToken: new RotateToken(
            tokens,
            users,
            tokenReader,
            changes,
            clock,
            randomness,
            settings.maxTokensPerUser,
          ),
          authenticate: new Authenticate(tokens, users, clock, cache, usage),
          logInWithPassword: new LogInWithPassword(users, throttle, passwords, clock, trail),
        };
      },
    ).inSingletonScope();
    provide(
      LifecycleComponent,
      [AccessChangeFeed, AccessChanges],
      (feed, changes) => new AccessChangeListener(feed, changes),
    ).inSingletonScope();
    provide(
      LifecycleComponent,
      [TokenUsageMeter, Log],
      (meter, logger) =>
        new PeriodicFlush('token usage flush', 'token usage counts', meter, settings.usageFlushIntervalMs, logger),
    ).inSingletonScope();
    provide(RouteContribution, [UsersAndTokensUseCases], (useCases) => ({
      section: {
        name: 'Users and tokens',
        description: 'Users, their API tokens and permissions: create, find, block, rotate and revoke.',
      },
      routes: [...userRoutes(useCases), ...tokenRoutes({ ...useCases, reader: useCases.tokenReader })],
    }));
  });
