import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../../../../domain/ports.js';
import type { AuditOutcome, AuditTrail, RequestOrigin } from '../../../../domain/audit.js';
import { userTarget } from '../audit-views.js';
import { characterCount } from '../../../../domain/text.js';
import type { DomainError, OutageError } from '../../../../domain/errors.js';
import { orOutage, USER_STORE_DOWN } from '../../../../domain/outage.js';
import { MAX_PASSWORD_LENGTH } from '../users/password.js';
import type { Passwords, UserStore } from '../users/ports.js';
import type { User } from '../../../../domain/identity/user.js';
import type { Actor } from '../../../../domain/identity/actor.js';
import {
  ACCOUNT_SLOWDOWN,
  accountKey,
  attemptKey,
  clientKey,
  slowdownAfter,
  unknownAccountKey,
  type AccountSlowdown,
} from './login-throttle.js';
import type { LoginThrottle } from './ports.js';
import { MAX_EMAIL_LENGTH } from '../users/user-rules.js';

export interface PasswordLogin {
  /** A username or an email address, in any case. */
  readonly login: string;
  readonly password: string;
  /** Where the attempt came from, for the per-client throttle. */
  readonly clientAddress: string;
  /** Where the request came from, for the audit trail. */
  readonly origin?: RequestOrigin;
}

const THROTTLE_DOWN: OutageError = { _tag: 'Unknown', details: 'login throttle unavailable' };

const pauseFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Proves who a user is by their password, for a token of their own. Wrong credentials of every
 * kind (unknown user, no password set, wrong password) answer the same InvalidApiKey after the
 * same scrypt verification; a blocked user is told so only once the password is right.
 *
 * Failures are counted so that nobody can lock anyone else out: an account tried from one client
 * address waits after a few failures (the attempt key), an address only after many over all
 * accounts (a proxy's address is many people's), and an account failing from many addresses is
 * slowed down, never refused. A refused attempt is refused before any hashing; a slowed one
 * waits before it.
 */
export class LogInWithPassword {
  constructor(
    private readonly users: UserStore,
    private readonly throttle: LoginThrottle,
    private readonly passwords: Passwords,
    private readonly clock: Clock,
    /** Where each checked attempt is written, whatever its outcome. */
    private readonly trail: AuditTrail,
    private readonly slowdown: AccountSlowdown = ACCOUNT_SLOWDOWN,
    private readonly pause: (ms: number) => Promise<void> = pauseFor,
  ) {}

  /** The last check-and-count queued per client address. */
  private readonly turns = new Map<string, Promise<unknown>>();

  async execute(tried: PasswordLogin): Promise<E.Either<DomainError, Actor>> {
    const { login, password, clientAddress } = tried;
    if (
      login.length === 0 ||
      characterCount(login) > MAX_EMAIL_LENGTH ||
      characterCount(password) > MAX_PASSWORD_LENGTH
    )
      return E.left({ _tag: 'InvalidApiKey' });
    const name = login.toLowerCase();
    const found = await orOutage(
      name.includes('@') ? this.users.findByEmail(name) : this.users.findByUsername(name),
      USER_STORE_DOWN,
    );
    if (E.isLeft(found)) return found;
    const user: User | undefined = found.right;
    // By id when the account exists, so its username and its email share one count.
    const account = user ? accountKey(user.id) : unknownAccountKey(name);
    const attempt = attemptKey(account, clientAddress);
    const refusing = [attempt, clientKey(clientAddress)];

    const now = this.clock.now();
    const counted = [...refusing, account];
    // The attempt is checked and counted as a failure in one turn per client address, before its
    // password is: attempts made together would otherwise all pass the check before any of them
    // was counted (60 at once from one address were all verified). One that turns out right is
    // taken back. The turn is this process's: instances sharing Redis each take their own.
    const standing = await this.inTurn(clientKey(clientAddress), async () => {
      const read = await orOutage(
        Promise.all([this.throttle.waitFor(refusing, now), this.throttle.failures(account, now)]),
        THROTTLE_DOWN,
      );
      if (E.isLeft(read) || read.right[0] > 0) return read;
      const recorded = await orOutage(this.throttle.recordFailure(counted, now), THROTTLE_DOWN);
      return E.isLeft(recorded) ? recorded : read;
    });
    if (E.isLeft(standing)) return standing;
    const [wait, accountFailures] = standing.right;
    if (wait > 0) return E.left({ _tag: 'RateLimited', retryAfterSeconds: Math.ceil(wait / 1000) });
    const slowed = slowdownAfter(this.slowdown, accountFailures);
    if (slowed > 0) await this.pause(slowed);

    const verified = await this.passwords.verify(
      password,
      user?.passwordHash ?? (await this.passwords.hashNobodyKnows()),
    );
    if (!user || user.passwordHash === null || !verified) {
      const written = await this.written(tried, user, 'failure', false);
      return E.isLeft(written) ? written : E.left({ _tag: 'InvalidApiKey' });
    }
    // The pair's count is cleared; the address's and the account's lose this attempt only: an
    // owner's success must not give whoever is guessing a fresh start.
    const cleared = await orOutage(
      Promise.all([this.throttle.clear(attempt), this.throttle.forgive([clientKey(clientAddress), account], now)]),
      THROTTLE_DOWN,
    );
    if (E.isLeft(cleared)) return cleared;
    const written = await this.written(tried, user, user.blocked ? 'failure' : 'success', true);
    if (E.isLeft(written)) return written;
    if (user.blocked) return E.left({ _tag: 'Blocked' });
    return E.right(
      tried.origin === undefined ? { kind: 'password', user } : { kind: 'password', user, origin: tried.origin },
    );
  }

  /**
   * Writes the attempt whose password was checked to the audit trail: the account it named (as
   * typed when there is none), and, once proved, who made it. Attempts the throttle refuses before
   * any check are not written: each would be a row anybody could add for free.
   */
  private async written(
    { login, origin }: PasswordLogin,
    user: User | undefined,
    outcome: AuditOutcome,
    /** Whether the password was right: then the attempt was the user's own. */
    proved: boolean,
  ): Promise<E.Either<DomainError, void>> {
    return orOutage(
      this.trail.record({
        at: this.clock.now(),
        action: 'login.password',
        actor: {
          uid: proved && user ? user.uid : null,
          username: proved && user ? user.username : null,
          tokenId: null,
          via: 'http',
        },
        target: user ? userTarget(user) : { type: 'user', id: null, label: login.toLowerCase() },
        changes: {},
        address: origin?.address ?? null,
        requestId: origin?.requestId ?? null,
        outcome,
        concerns: user?.id ?? null,
      }),
      USER_STORE_DOWN,
    );
  }

  /** Runs `work` once the work queued before it under `key` has finished, whatever its outcome. */
  private inTurn<A>(key: string, work: () => Promise<A>): Promise<A> {
    const mine = (this.turns.get(key) ?? Promise.resolve()).then(work);
    const done = mine.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(key, done);
    void done.then(() => this.turns.get(key) === done && this.turns.delete(key));
    return mine;
  }
}
