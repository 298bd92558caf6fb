import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { tokenRoutes } from './token-routes.js';
import { userRoutes } from './user-routes.js';
import { AccessChanges } from './domain/auth/access-changes.js';
import { Authenticate } from './domain/auth/authenticate.js';
import { LogInWithPassword } from './domain/auth/log-in-with-password.js';
import { AccessChangeFeed } from '../../domain/identity/access-changes.js';
import { LoginThrottle } from './domain/auth/ports.js';
import { VerifiedTokenCache } from './domain/auth/verified-token-cache.js';
import { Clock, Randomness } from '../../domain/ports.js';
import { IssueToken } from './domain/tokens/issue-token.js';
import { RevokeToken, TokenReader, UpdateToken } from './domain/tokens/manage-tokens.js';
import { TokenStore } from './domain/tokens/ports.js';
import type { RateLimit } from '../../domain/identity/rate-limit.js';
import { TokenUsageMeter } from './domain/tokens/usage-meter.js';
import { CreateUser } from './domain/users/create-user.js';
import { DeleteUser, GetUser, ListUsers, UpdateUser } from './domain/users/manage-users.js';
import { ScryptPasswords } from './adapters/scrypt-passwords.js';
import { Passwords, UserStore } from './domain/users/ports.js';
import { Log, RouteContribution, useCasesIdentifier } from '../../composition/identifiers.js';
import { AccessChangeListener } from './access-change-listener.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { UsageFlush } from './usage-flush.js';

export interface UsersAndTokensSettings {
  readonly verifiedTokenTtlMs: number;
  readonly usageFlushIntervalMs: number;
  /** log2 of scrypt's N for new password hashes. */
  readonly passwordCost: number;
  /** The policy of tokens without a limit of their own: no token issues one above its own. */
  readonly defaultRateLimit: RateLimit | null;
  /** Unexpired tokens one user may hold, whoever issues them. */
  readonly maxTokensPerUser: number;
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
  readonly authenticate: Authenticate;
  readonly logInWithPassword: LogInWithPassword;
}
export const UsersAndTokensUseCases = useCasesIdentifier<UsersAndTokensUseCases>('UsersAndTokensUseCases');

/**
 * Users, their tokens and passwords, and the authentication every other family relies on. The
 * login throttle is the limits module's, which counts it where it counts request rates.
 */
export const usersAndTokensModule = (settings: UsersAndTokensSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(VerifiedTokenCache)
      .toResolvedValue((clock: Clock) => new VerifiedTokenCache(clock, settings.verifiedTokenTtlMs), [Clock])
      .inSingletonScope();
    bind(AccessChanges)
      .toResolvedValue(
        (cache: VerifiedTokenCache, feed: AccessChangeFeed) => new AccessChanges(cache, feed),
        [VerifiedTokenCache, AccessChangeFeed],
      )
      .inSingletonScope();
    bind(TokenUsageMeter)
      .toResolvedValue((tokens: TokenStore) => new TokenUsageMeter(tokens), [TokenStore])
      .inSingletonScope();
    bind(Authenticate)
      .toResolvedValue(
        (tokens: TokenStore, users: UserStore, clock: Clock, cache: VerifiedTokenCache, usage: TokenUsageMeter) =>
          new Authenticate(tokens, users, clock, cache, usage),
        [TokenStore, UserStore, Clock, VerifiedTokenCache, TokenUsageMeter],
      )
      .inSingletonScope();
    bind(Passwords).toConstantValue(new ScryptPasswords(settings.passwordCost));
    bind(LogInWithPassword)
      .toResolvedValue(
        (users: UserStore, throttle: LoginThrottle, passwords: Passwords, clock: Clock) =>
          new LogInWithPassword(users, throttle, passwords, clock),
        [UserStore, LoginThrottle, Passwords, Clock],
      )
      .inSingletonScope();

    bind(CreateUser)
      .toResolvedValue(
        (users: UserStore, clock: Clock, randomness: Randomness, passwords: Passwords) =>
          new CreateUser(users, clock, randomness, passwords),
        [UserStore, Clock, Randomness, Passwords],
      )
      .inSingletonScope();
    bind(GetUser)
      .toResolvedValue((users: UserStore) => new GetUser(users), [UserStore])
      .inSingletonScope();
    bind(ListUsers)
      .toResolvedValue((users: UserStore) => new ListUsers(users), [UserStore])
      .inSingletonScope();
    bind(UpdateUser)
      .toResolvedValue(
        (users: UserStore, clock: Clock, changes: AccessChanges, passwords: Passwords) =>
          new UpdateUser(users, clock, changes, passwords),
        [UserStore, Clock, AccessChanges, Passwords],
      )
      .inSingletonScope();
    bind(DeleteUser)
      .toResolvedValue(
        (users: UserStore, changes: AccessChanges) => new DeleteUser(users, changes),
        [UserStore, AccessChanges],
      )
      .inSingletonScope();

    bind(TokenReader)
      .toResolvedValue(
        (tokens: TokenStore, users: UserStore, usage: TokenUsageMeter) => new TokenReader(tokens, users, usage),
        [TokenStore, UserStore, TokenUsageMeter],
      )
      .inSingletonScope();
    bind(RevokeToken)
      .toResolvedValue(
        (tokens: TokenStore, reader: TokenReader, changes: AccessChanges) => new RevokeToken(tokens, reader, changes),
        [TokenStore, TokenReader, AccessChanges],
      )
      .inSingletonScope();
    bind(UpdateToken)
      .toResolvedValue(
        (tokens: TokenStore, reader: TokenReader, changes: AccessChanges) => new UpdateToken(tokens, reader, changes),
        [TokenStore, TokenReader, AccessChanges],
      )
      .inSingletonScope();
    bind(IssueToken)
      .toResolvedValue(
        (users: UserStore, tokens: TokenStore, clock: Clock, randomness: Randomness) =>
          new IssueToken(users, tokens, clock, randomness, settings.defaultRateLimit, settings.maxTokensPerUser),
        [UserStore, TokenStore, Clock, Randomness],
      )
      .inSingletonScope();

    bind(LifecycleComponent)
      .toResolvedValue(
        (feed: AccessChangeFeed, changes: AccessChanges) => new AccessChangeListener(feed, changes),
        [AccessChangeFeed, AccessChanges],
      )
      .inSingletonScope();
    bind(LifecycleComponent)
      .toResolvedValue(
        (meter: TokenUsageMeter, logger: Logger) => new UsageFlush(meter, settings.usageFlushIntervalMs, logger),
        [TokenUsageMeter, Log],
      )
      .inSingletonScope();
    bind(UsersAndTokensUseCases).toResolvedValue(
      (
        createUser: CreateUser,
        getUser: GetUser,
        listUsers: ListUsers,
        updateUser: UpdateUser,
        deleteUser: DeleteUser,
        issueToken: IssueToken,
        tokenReader: TokenReader,
        revokeToken: RevokeToken,
        updateToken: UpdateToken,
        authenticate: Authenticate,
        logInWithPassword: LogInWithPassword,
      ): UsersAndTokensUseCases => ({
        createUser,
        getUser,
        listUsers,
        updateUser,
        deleteUser,
        issueToken,
        tokenReader,
        revokeToken,
        updateToken,
        authenticate,
        logInWithPassword,
      }),
      [
        CreateUser,
        GetUser,
        ListUsers,
        UpdateUser,
        DeleteUser,
        IssueToken,
        TokenReader,
        RevokeToken,
        UpdateToken,
        Authenticate,
        LogInWithPassword,
      ],
    );
    bind(RouteContribution).toResolvedValue(
      (
        createUser: CreateUser,
        getUser: GetUser,
        updateUser: UpdateUser,
        deleteUser: DeleteUser,
        issueToken: IssueToken,
        reader: TokenReader,
        revokeToken: RevokeToken,
        updateToken: UpdateToken,
      ): RouteContribution => ({
        routes: [
          ...userRoutes({ createUser, getUser, updateUser, deleteUser }),
          ...tokenRoutes({ issueToken, reader, revokeToken, updateToken }),
        ],
      }),
      [CreateUser, GetUser, UpdateUser, DeleteUser, IssueToken, TokenReader, RevokeToken, UpdateToken],
    );
  });
