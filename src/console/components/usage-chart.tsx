import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** What `GET /api/user/usage` and `GET /api/token/usage` answer. */
export interface Usage {
  readonly from: string;
  readonly to: string;
  readonly by: 'hour' | 'day';
  readonly series: readonly { at: string; count: number; operation?: string; status?: string }[];
  readonly total: number;
}

/** Line colours that keep 3:1 against both the light and the dark ground. */
const PALETTE = ['#1a73e8', '#d93025', '#188038', '#b06000', '#a142f4', '#007b83', '#c5221f', '#5f6368'];
const SECONDS = { hour: 3600, day: 86_400 } as const;

interface Lines {
  /** Each bucket's start, in seconds, every one from `from` to `to` (the API leaves empty ones out). */
  readonly at: number[];
  readonly groups: { readonly name: string; readonly counts: number[]; readonly total: number }[];
}

function linesOf(usage: Usage): Lines {
  const step = SECONDS[usage.by];
  const first = Math.floor(Date.parse(usage.from) / 1000 / step) * step;
  const end = Date.parse(usage.to) / 1000;
  const at: number[] = [];
  for (let time = first; time < end; time += step) at.push(time);
  const groups = new Map<string, number[]>();
  for (const point of usage.series) {
    const name = point.operation ?? point.status ?? 'requests';
    const counts = groups.get(name) ?? at.map(() => 0);
    const index = Math.round((Date.parse(point.at) / 1000 - first) / step);
    if (index >= 0 && index < counts.length) counts[index] = (counts[index] ?? 0) + point.count;
    groups.set(name, counts);
  }
  return {
    at,
    groups: [...groups].map(([name, counts]) => ({
      name,
      counts,
      total: counts.reduce((sum, count) => sum + count, 0),
    })),
  };
}

const cssColour = (element: Element, name: string): string =>
  getComputedStyle(element).getPropertyValue(name).trim() || 'currentColor';

/**
 * Requests over time, one line per operation or status class, drawn by uPlot; the same numbers
 * are given as text beside it (the total and each line's), for those who cannot see the drawing.
 */
export function UsageChart({ usage, title }: { readonly usage: Usage; readonly title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const lines = linesOf(usage);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const text = cssColour(element, '--text');
    const grid = cssColour(element, '--line');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: 220,
        legend: { show: false },
        cursor: { show: true },
        axes: [axis, { ...axis, size: 50 }],
        series: [
          {},
          ...lines.groups.map((group, index) => ({
            label: group.name,
            stroke: PALETTE[index % PALETTE.length],
            width: 2,
          })),
        ],
      },
      [lines.at, ...lines.groups.map((group) => group.counts)],
      element,
    );
    const resized = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height: 220 }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [usage]);
  return (
    <figure class="usage-chart">
      <figcaption>
        {title}: {usage.total} {usage.total === 1 ? 'request' : 'requests'} by {usage.by}, from{' '}
        {new Date(usage.from).toLocaleString()} to {new Date(usage.to).toLocaleString()}
      </figcaption>
      <div ref={box} class="plot" role="img" aria-label={`${title}: a chart of the requests by ${usage.by}`} />
      {lines.groups.length > 0 ? (
        <ul class="legend">
          {lines.groups.map((group, index) => (
            <li key={group.name}>
              <span class="swatch" style={{ background: PALETTE[index % PALETTE.length] }} aria-hidden="true" />
              <code>{group.name}</code>: {group.total}
            </li>
          ))}
        </ul>
      ) : (
        <p>No requests in this time.</p>
      )}
    </figure>
  );
}
