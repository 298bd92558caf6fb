import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Answer } from '../../client/index.js';

export type Loading<Data> = { readonly state: 'loading' } | { readonly state: 'done'; readonly answer: Answer<Data> };

/**
 * An API call made when the component shows (and again when `inputs` change or `reload` is
 * called), with its answer kept: a page renders "loading", the data or the problem.
 */
export function useAnswer<Data>(call: () => Promise<Answer<Data>>, inputs: readonly unknown[] = []) {
  const [loading, setLoading] = useState<Loading<Data>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    void call().then((answer) => {
      if (current) setLoading({ state: 'done', answer });
    });
    return () => {
      current = false;
    };
  }, [round, ...inputs]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return [loading, reload] as const;
}
