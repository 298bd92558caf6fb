import { describeProblem, waitOf, type Problem } from '../problem.js';

/**
 * What went wrong, in words with its code, where the action was: an alert, so that a screen
 * reader says it at once. A 429 is a wait, said as one (a status, not an alert).
 */
export function ProblemMessage({ problem }: { readonly problem: Problem | undefined }) {
  if (problem === undefined) return null;
  const wait = waitOf(problem);
  if (wait !== undefined)
    return (
      <p class="wait" role="status">
        Too many attempts: try again in {wait} s. ({describeProblem(problem)})
      </p>
    );
  return (
    <p class="problem" role="alert">
      {describeProblem(problem)}
    </p>
  );
}
