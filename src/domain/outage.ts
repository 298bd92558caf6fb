import * as E from 'fp-ts/lib/Either.js';
import type { OutageError } from './errors.js';

/** A read that failed for an outage: the catalogue has no read-failure code, so 500/0. */
export const USER_STORE_DOWN: OutageError = { _tag: 'Unknown', details: 'user store unavailable' };
export const TOKEN_STORE_DOWN: OutageError = { _tag: 'Unknown', details: 'token store unavailable' };

/**
 * What a store rejects with when its storage could not be reached in time (a connection refused,
 * a pool or a lock waited on too long): the request becomes StorageUnavailable, whatever failure
 * its use case would otherwise have named, so that the client knows to try again.
 */
export class StorageUnreachable extends Error {
  override readonly name = 'StorageUnreachable';
}

/**
 * Runs a store call whose rejection means an outage, turning it into the given catalogue error
 * so callers never see a thrown store failure. The error carries the rejection as its `cause`,
 * for the transport's edge to log once with what it knows of the request; no client sees it.
 */
export async function orOutage<A>(work: Promise<A>, error: OutageError): Promise<E.Either<OutageError, A>> {
  try {
    return E.right(await work);
  } catch (cause) {
    return E.left(cause instanceof StorageUnreachable ? { _tag: 'StorageUnavailable', cause } : { ...error, cause });
  }
}
