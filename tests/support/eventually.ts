/**
 * Waiting in tests without betting on the machine's speed: a check is polled until it holds, and
 * only a deadline far beyond what the check needs on a loaded machine makes it fail. A deadline
 * that is the product's own promise (a change reaches every instance within a second) is named
 * so where it is passed.
 */

export interface EventuallyOptions {
  /** How long the check may take to hold before the test fails; generous unless a promise sets it. */
  readonly timeoutMs?: number;
  /** The pause between two tries. */
  readonly intervalMs?: number;
}

/** The deadline of a wait that no promise of the product sets: long enough for any loaded machine. */
export const GENEROUS_MS = 10_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `check` until it returns without throwing, and gives back what it returned; past the
 * deadline, throws what the last try threw (an assertion's own message, for a clear failure).
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = GENEROUS_MS, intervalMs = 20 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) {
        if (error instanceof Error) error.message = `still, after ${timeoutMs} ms: ${error.message}`;
        throw error;
      }
    }
    await pause(intervalMs);
  }
}

/**
 * What `promise` settles with, or a failure naming `what` once `timeoutMs` has passed: for an
 * answer that must come at all (a call that is cut by a deadline rather than left hanging).
 */
export async function settlesWithin<T>(promise: Promise<T>, what: string, timeoutMs = GENEROUS_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
