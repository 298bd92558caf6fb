import type { ComponentChildren } from 'preact';
import { ProblemMessage } from './problem-message.js';
import type { Loading } from './use-answer.js';

/**
 * What a page shows of a call it made (`useAnswer`): "Loading…" until it is answered, the problem
 * in words with its code if it failed, and what `children` makes of the data once it succeeded.
 */
export function Answered<Data>({
  loading,
  children,
}: {
  readonly loading: Loading<Data>;
  readonly children: (data: Data) => ComponentChildren;
}) {
  if (loading.state === 'loading') return <p>Loading…</p>;
  if (!loading.answer.ok) return <ProblemMessage problem={loading.answer} />;
  return <>{children(loading.answer.data)}</>;
}
