import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { tokenRoutes } from '../adapters/http/routes/token-routes.js';
import { userRoutes } from '../adapters/http/routes/user-routes.js';
import { MemoryLoginThrottle } from '../adapters/throttle/memory-login-throttle.js';
import { Authenticate } from '../domain/auth/authenticate.js';
import { LogInWithPassword } from '../domain/auth/log-in-with-password.js';
import { LOGIN_THROTTLE_POLICY } from '../domain/auth/login-throttle.js';
import { LoginThrottle } from '../domain/auth/ports.js';
import { VerifiedTokenCache } from '../domain/auth/verified-token-cache.js';
import { Clock, Randomness } from '../domain/ports.js';
import { IssueToken } from '../domain/tokens/issue-token.js';
import { RevokeToken, TokenReader } from '../domain/tokens/manage-tokens.js';
import { TokenStore } from '../domain/tokens/ports.js';
import { TokenUsageMeter } from '../domain/tokens/usage-meter.js';
import { CreateUser } from '../domain/users/create-user.js';
import { DeleteUser, GetUser, ListUsers, UpdateUser } from '../domain/users/manage-users.js';
import { scryptPasswordVerifier } from '../domain/users/password.js';
import { PasswordVerifier, UserStore } from '../domain/users/ports.js';
import { Log, RouteContribution, useCasesIdentifier } from './identifiers.js';
import { LifecycleComponent } from './lifecycle.js';
import { UsageFlush } from './usage-flush.js';

export interface UsersAndTokensSettings {
  readonly verifiedTokenTtlMs: number;
  readonly usageFlushIntervalMs: number;
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
  readonly authenticate: Authenticate;
  readonly logInWithPassword: LogInWithPassword;
}
export const UsersAndTokensUseCases = useCasesIdentifier<UsersAndTokensUseCases>('UsersAndTokensUseCases');

/** Users, their tokens and passwords, and the authentication every other family relies on. */
export const usersAndTokensModule = (settings: UsersAndTokensSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(VerifiedTokenCache).toResolvedValue((clock: Clock) => new VerifiedTokenCache(clock, settings.verifiedTokenTtlMs), [Clock]).inSingletonScope();
    bind(TokenUsageMeter).toResolvedValue((tokens: TokenStore) => new TokenUsageMeter(tokens), [TokenStore]).inSingletonScope();
    bind(Authenticate).toResolvedValue(
      (tokens: TokenStore, users: UserStore, clock: Clock, cache: VerifiedTokenCache, usage: TokenUsageMeter) => new Authenticate(tokens, users, clock, cache, usage),
      [TokenStore, UserStore, Clock, VerifiedTokenCache, TokenUsageMeter],
    ).inSingletonScope();
    bind(LoginThrottle).toConstantValue(new MemoryLoginThrottle(LOGIN_THROTTLE_POLICY));
    bind(PasswordVerifier).toConstantValue(scryptPasswordVerifier);
    bind(LogInWithPassword).toResolvedValue(
      (users: UserStore, throttle: LoginThrottle, verifier: PasswordVerifier, clock: Clock) => new LogInWithPassword(users, throttle, verifier, clock),
      [UserStore, LoginThrottle, PasswordVerifier, Clock],
    ).inSingletonScope();

    bind(CreateUser).toResolvedValue(
      (users: UserStore, clock: Clock, randomness: Randomness) => new CreateUser(users, clock, randomness),
      [UserStore, Clock, Randomness],
    ).inSingletonScope();
    bind(GetUser).toResolvedValue((users: UserStore) => new GetUser(users), [UserStore]).inSingletonScope();
    bind(ListUsers).toResolvedValue((users: UserStore) => new ListUsers(users), [UserStore]).inSingletonScope();
    bind(UpdateUser).toResolvedValue(
      (users: UserStore, clock: Clock, cache: VerifiedTokenCache) => new UpdateUser(users, clock, cache),
      [UserStore, Clock, VerifiedTokenCache],
    ).inSingletonScope();
    bind(DeleteUser).toResolvedValue((users: UserStore, cache: VerifiedTokenCache) => new DeleteUser(users, cache), [UserStore, VerifiedTokenCache]).inSingletonScope();

    bind(TokenReader).toResolvedValue(
      (tokens: TokenStore, users: UserStore, usage: TokenUsageMeter) => new TokenReader(tokens, users, usage),
      [TokenStore, UserStore, TokenUsageMeter],
    ).inSingletonScope();
    bind(RevokeToken).toResolvedValue(
      (tokens: TokenStore, reader: TokenReader, cache: VerifiedTokenCache) => new RevokeToken(tokens, reader, cache),
      [TokenStore, TokenReader, VerifiedTokenCache],
    ).inSingletonScope();
    bind(IssueToken).toResolvedValue(
      (users: UserStore, tokens: TokenStore, clock: Clock, randomness: Randomness) => new IssueToken(users, tokens, clock, randomness),
      [UserStore, TokenStore, Clock, Randomness],
    ).inSingletonScope();

    bind(LifecycleComponent).toResolvedValue(
      (meter: TokenUsageMeter, logger: Logger) => new UsageFlush(meter, settings.usageFlushIntervalMs, logger),
      [TokenUsageMeter, Log],
    ).inSingletonScope();
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
        authenticate: Authenticate,
        logInWithPassword: LogInWithPassword,
      ): UsersAndTokensUseCases => ({ createUser, getUser, listUsers, updateUser, deleteUser, issueToken, tokenReader, revokeToken, authenticate, logInWithPassword }),
      [CreateUser, GetUser, ListUsers, UpdateUser, DeleteUser, IssueToken, TokenReader, RevokeToken, Authenticate, LogInWithPassword],
    );
    bind(RouteContribution).toResolvedValue(
      (createUser: CreateUser, getUser: GetUser, updateUser: UpdateUser, deleteUser: DeleteUser, issueToken: IssueToken, reader: TokenReader, revokeToken: RevokeToken): RouteContribution => ({
        routes: [...userRoutes({ createUser, getUser, updateUser, deleteUser }), ...tokenRoutes({ issueToken, reader, revokeToken })],
      }),
      [CreateUser, GetUser, UpdateUser, DeleteUser, IssueToken, TokenReader, RevokeToken],
    );
  });
