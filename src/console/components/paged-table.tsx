import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface Column<Row> {
  readonly header: string;
  readonly cell: (row: Row) => ComponentChildren;
}

export interface PagedTableProps<Row> {
  /** What the table lists, said to screen readers and shown above it. */
  readonly caption: string;
  readonly rows: readonly Row[];
  readonly columns: readonly Column<Row>[];
  readonly rowKey: (row: Row) => string;
  readonly pageSize?: number;
  /** Said in the table's place when there are no rows. */
  readonly empty?: string;
}

/**
 * A table shown a page at a time, with Previous and Next; it scrolls sideways inside its own box
 * on a narrow screen rather than widening the page.
 */
export function PagedTable<Row>({ caption, rows, columns, rowKey, pageSize = 10, empty }: PagedTableProps<Row>) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const shown = Math.min(page, pages - 1);
  const slice = rows.slice(shown * pageSize, (shown + 1) * pageSize);
  if (rows.length === 0) return <p>{empty ?? `No ${caption.toLowerCase()}.`}</p>;
  return (
    <div class="paged-table">
      <div class="table-box" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column.header}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {slice.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header}>{column.cell(row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav class="pager" aria-label={`Pages of ${caption.toLowerCase()}`}>
          <button type="button" disabled={shown === 0} onClick={() => setPage(shown - 1)}>
            Previous
          </button>
          <span aria-live="polite">
            Page {shown + 1} of {pages}
          </span>
          <button type="button" disabled={shown === pages - 1} onClick={() => setPage(shown + 1)}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
