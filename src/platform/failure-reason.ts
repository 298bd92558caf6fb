/**
 * An error's own words, for the one line a transport prints when it cannot go on. Connecting to a
 * name with several addresses (`localhost`: ::1 and 127.0.0.1) fails with one error per address
 * and no message of its own.
 */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(reasonOf).join('; ');
  return error instanceof Error ? error.message : String(error);
}
