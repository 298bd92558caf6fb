import { useState } from 'preact/hooks';
import type { Answer } from '../../client/index.js';
import { useAnswer } from './use-answer.js';

/** How many rows a page of a list read by cursor asks for. */
export const PAGE_LIMIT = 20;

/**
 * A list the API gives a page at a time (`limit`, `cursor`, its answer's `nextCursor`). The API
 * only pages forwards, so the cursor of each page reached is kept: Previous reads the page before
 * again with its own cursor. `restart` goes back to the first page, as a changed filter must,
 * since a cursor holds only with the filters it was given with.
 */
export function useCursorPages<Page extends { readonly nextCursor: string | null }>(
  read: (cursor: string | undefined) => Promise<Answer<Page>>,
  inputs: readonly unknown[] = [],
) {
  const [trail, setTrail] = useState<readonly (string | undefined)[]>([undefined]);
  const [page, reload] = useAnswer(() => read(trail[trail.length - 1]), [trail, ...inputs]);
  const nextCursor = page.state === 'done' && page.answer.ok ? page.answer.data.nextCursor : null;
  return {
    page,
    reload,
    /** 1 for the first page. */
    number: trail.length,
    next: nextCursor === null ? undefined : () => setTrail([...trail, nextCursor]),
    previous: trail.length > 1 ? () => setTrail(trail.slice(0, -1)) : undefined,
    restart: () => setTrail([undefined]),
  };
}

/** Previous and Next under a list read by cursor; the count of pages is unknown, so only the page's number shows. */
export function CursorPager({
  label,
  pages,
}: {
  /** What the pages are of, for screen readers ("Pages of deliveries"). */
  readonly label: string;
  readonly pages: Pick<ReturnType<typeof useCursorPages>, 'number' | 'next' | 'previous'>;
}) {
  if (pages.number === 1 && pages.next === undefined) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pages.previous === undefined} onClick={pages.previous}>
        Previous
      </button>
      <span aria-live="polite">Page {pages.number}</span>
      <button type="button" disabled={pages.next === undefined} onClick={pages.next}>
        Next
      </button>
    </nav>
  );
}
