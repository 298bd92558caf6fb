import { StorageUnreachable } from '../../domain/outage.js';

/** Node's socket errors that mean the database server could not be reached or went away. */
const UNREACHABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** PostgreSQL's: class 08 (connection exception), an administrator's shutdown, starting up, too many connections. */
const UNREACHABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;
/**
 * SQLite's: the file locked by another writer for longer than the busy timeout. The statement
 * that met it did nothing, and its transaction is rolled back, so the call may be made again.
 */
const LOCKED_SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);
/**
 * What the pg driver says, without a code, when a connection or a query ran out of time or was
 * cut; Knex puts the query and " - " before it.
 */
const UNREACHABLE_MESSAGE =
  /(^| - )(Connection terminated|Query read timeout|timeout expired|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether a database call failed because the database did not answer in time, rather than because of what was asked. */
export function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (
    typeof code === 'string' &&
    (UNREACHABLE_SOCKET_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code) || LOCKED_SQLITE_CODES.has(code))
  )
    return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGE.test(message);
}

const lockedBySomeoneElse = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && LOCKED_SQLITE_CODES.has(String((error as { code?: unknown }).code));

/** The first pause before a call that met SQLite's lock is made again; it doubles up to the last. */
const FIRST_RETRY_MS = 10;
const LAST_RETRY_MS = 200;

/**
 * What the stores on one database share: each call's deadline, when the database last answered a
 * query, and the turns that calls which met SQLite's lock take to try again, one at a time, so
 * that waiting for another writer holds the process up for at most one short wait at a time.
 */
export class CallDeadline {
  private turns: Promise<unknown> = Promise.resolve();
  private lastAnswerAt = 0;

  constructor(readonly ms: number) {}

  /** Told of every query the database answers (Knex's `query-response`). */
  answered(): void {
    this.lastAnswerAt = Date.now();
  }

  /**
   * When a call made at `startedAt` is given up: `ms` after the later of its start and the
   * database's last answer. A database that keeps answering (a large import, many statements in
   * one transaction) is not down, and a call cut short then might go on to store what its caller
   * was told had failed.
   */
  dueAt(startedAt: number): number {
    return Math.max(startedAt, this.lastAnswerAt) + this.ms;
  }

  /** Runs `attempt` after `pauseMs`, once the calls queued before it have had their turn. */
  takeTurn<A>(pauseMs: number, attempt: () => Promise<A>): Promise<A> {
    const turn = this.turns.then(() => new Promise((resolve) => setTimeout(resolve, pauseMs))).then(attempt);
    this.turns = turn.catch(() => {});
    return turn;
  }
}

/**
 * The store, its every call's "could not reach the database" rejections turned into the domain's
 * StorageUnreachable (the cause kept), so that a use case answers 503 and not its own failure.
 * One wrapper for every Knex store, rather than a try in each of their methods.
 *
 * Each call has the deadline's `ms` in all while the database answers nothing (see `dueAt`). The
 * driver's own deadlines apply to each step (to be given a connection, to connect, each query's
 * answer), and a call of several steps against a database that hangs would otherwise cost their
 * sum; what a call goes on doing after its deadline ends by those same deadlines, and its late
 * outcome is dropped. SQLite waits for
 * another writer's lock synchronously, holding up every request of the process, so it waits only
 * briefly (see `openDatabase`) and a call that met the lock is made again here, in turns, until
 * its deadline.
 */
export function reachingInTime<Store extends object>(store: Store, deadline: CallDeadline): Store {
  // Each method wrapped once, at its first call: a store is called on every uncached request.
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      let method = wrapped.get(property);
      if (method === undefined) {
        method = (...args: unknown[]) => {
          const result: unknown = value.apply(target, args);
          if (!(result instanceof Promise)) return result;
          return new Promise((resolve, reject) => {
            const startedAt = Date.now();
            const deadlineAt = startedAt + deadline.ms;
            let pause = FIRST_RETRY_MS;
            let late = false;
            // What the last attempt met, if it met the lock: the log's answer to why the call ran out of time.
            let lastFailure: unknown;
            const expire = (): void => {
              const left = deadline.dueAt(startedAt) - Date.now();
              if (left > 0) {
                timer = setTimeout(expire, left);
                return;
              }
              late = true;
              reject(
                new StorageUnreachable(
                  `the database did not answer within ${deadline.ms} ms`,
                  lastFailure === undefined ? undefined : { cause: lastFailure },
                ),
              );
            };
            let timer = setTimeout(expire, deadline.ms);
            // A turn that comes after the call's own deadline (behind other calls' turns) is not taken.
            const again = (): Promise<unknown> =>
              late || Date.now() >= deadlineAt
                ? Promise.reject(lastFailure)
                : (value.apply(target, args) as Promise<unknown>);
            const settle = (attempt: Promise<unknown>): void => {
              attempt.then(
                (answer: unknown) => {
                  clearTimeout(timer);
                  resolve(answer);
                },
                (error: unknown) => {
                  if (lockedBySomeoneElse(error) && Date.now() + pause < deadlineAt) {
                    lastFailure = error;
                    settle(deadline.takeTurn(pause, again));
                    pause = Math.min(pause * 2, LAST_RETRY_MS);
                    return;
                  }
                  clearTimeout(timer);
                  reject(
                    isUnreachable(error)
                      ? new StorageUnreachable('the database did not answer in time', { cause: error })
                      : error,
                  );
                },
              );
            };
            settle(result);
          });
        };
        wrapped.set(property, method);
      }
      return method;
    },
  });
}
