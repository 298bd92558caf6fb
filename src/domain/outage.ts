import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from './errors.js';

/** A read that failed for an outage: the catalogue has no read-failure code, so 500/0. */
export const USER_STORE_DOWN: DomainError = { _tag: 'Unknown', details: 'user store unavailable' };
export const TOKEN_STORE_DOWN: DomainError = { _tag: 'Unknown', details: 'token store unavailable' };

/**
 * Runs a store call whose rejection means an outage, turning it into the given catalogue error
 * so callers never see a thrown store failure. The cause goes to `onOutage` for logging.
 */
export async function orOutage<A>(
  work: Promise<A>,
  error: DomainError,
  onOutage: (cause: unknown) => void = () => {},
): Promise<E.Either<DomainError, A>> {
  try {
    return E.right(await work);
  } catch (cause) {
    onOutage(cause);
    return E.left(error);
  }
}
