import { useState } from 'preact/hooks';

/**
 * Where a listing the API reads a page at a time is (`limit`, `cursor`, `nextCursor`): its
 * filters and the cursors of the pages before the one shown. The API goes forwards only, so
 * going back is going to the cursor kept for the page before; new filters start again at the
 * first page, since a cursor belongs to the listing of the filters it was given with.
 */
export function useCursorTrail<Filters>(initial: Filters) {
  const [at, setAt] = useState<{ readonly filters: Filters; readonly cursors: readonly string[] }>({
    filters: initial,
    cursors: [],
  });
  return {
    filters: at.filters,
    /** The cursor of the page shown; none for the first. */
    cursor: at.cursors[at.cursors.length - 1],
    /** The page shown, from 1. */
    page: at.cursors.length + 1,
    /** Changes some filters, keeping the others as they are now, and goes back to the first page. */
    filter: (change: Partial<Filters>) => setAt((now) => ({ filters: { ...now.filters, ...change }, cursors: [] })),
    next: (cursor: string) => setAt((now) => ({ ...now, cursors: [...now.cursors, cursor] })),
    previous: () => setAt((now) => ({ ...now, cursors: now.cursors.slice(0, -1) })),
  };
}

export interface CursorPagerProps {
  /** What is paged, for the navigation's name ("Pages of users"). */
  readonly label: string;
  readonly page: number;
  /** The answer's `nextCursor`: null on the last page. */
  readonly nextCursor: string | null;
  readonly onNext: (cursor: string) => void;
  readonly onPrevious: () => void;
}

/** Previous and Next under a listing the API pages; shown only when there is another page either way. */
export function CursorPager({ label, page, nextCursor, onNext, onPrevious }: CursorPagerProps) {
  if (page === 1 && nextCursor === null) return null;
  return (
    <nav class="pager" aria-label={`Pages of ${label}`}>
      <button type="button" disabled={page === 1} onClick={onPrevious}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page}
        {nextCursor === null ? ' (the last)' : ''}
      </span>
      <button type="button" disabled={nextCursor === null} onClick={() => nextCursor !== null && onNext(nextCursor)}>
        Next
      </button>
    </nav>
  );
}
