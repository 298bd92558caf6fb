import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from './errors.js';

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
