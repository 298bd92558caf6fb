import { StorageUnreachable } from '../../../domain/outage.js';

/** Node's socket errors that mean the database server could not be reached or went away. */
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL's: class 08 (connection exception), an administrator's shutdown, starting up, too many connections. */
const UNREACHABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;
/** SQLite's: the file locked by another writer for longer than the busy timeout. */
const UNREACHABLE_SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);
/**
 * What the pg driver says, without a code, when a connection or a query ran out of time or was
 * cut; Knex puts the query and " - " before it.
 */
const UNREACHABLE_MESSAGE = /(^| - )(Connection terminated|Query read timeout|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether a database call failed because the database did not answer in time, rather than because of what was asked. */
export function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && (UNREACHABLE_SOCKET_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_SQLITE_CODES.has(code))) return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGE.test(message);
}

/**
 * The store, its every call's "could not reach the database" rejections turned into the domain's
 * StorageUnreachable (the cause kept), so that a use case answers 503 and not its own failure.
 * One wrapper for every Knex store, rather than a try in each of their methods.
 */
export function reachingInTime<Store extends object>(store: Store): Store {
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
          return result.catch((error: unknown) => {
            throw isUnreachable(error) ? new StorageUnreachable('the database did not answer in time', { cause: error }) : error;
          });
        };
        wrapped.set(property, method);
      }
      return method;
    },
  });
}
