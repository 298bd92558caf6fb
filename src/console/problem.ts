import type { Answer, Failure } from '../client/index.js';

/** An answer that is not a success: a catalogue error or a failure to get one. */
export type Problem = Exclude<Answer<unknown>, { ok: true }>;

const FAILURES: { readonly [K in Failure['kind']]: string } = {
  network: 'The server could not be reached (the network failed or the connection was refused)',
  timeout: 'The server took too long to answer',
  aborted: 'The request was cancelled',
  unreadable: 'The answer was not one of the API (a proxy or a server error page?)',
};

/** A problem in words: the API's message, details and code, or what kept the answer from coming. */
export function describeProblem(problem: Problem): string {
  if (problem.error) {
    const { code, message, details } = problem.error;
    return `${message}${details ? `: ${details}` : ''} (HTTP ${problem.status}, code ${code})`;
  }
  const { failure } = problem;
  return failure.kind === 'unreadable' ? `${FAILURES.unreadable} (HTTP ${failure.status})` : FAILURES[failure.kind];
}

/** The catalogue's code for too many requests (429): a wait rather than a fault. */
const TOO_MANY_LOGINS = 25;

/** Seconds to wait, when the problem is the login throttle or a rate limit (429 with Retry-After). */
export const waitOf = (problem: Problem): number | undefined =>
  problem.error && problem.status === 429 ? (problem.retryAfterSeconds ?? 1) : undefined;

export const isLoginThrottle = (problem: Problem): boolean => problem.error?.code === TOO_MANY_LOGINS;
