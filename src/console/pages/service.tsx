import { Answered } from '../components/answered.js';
import type { ComponentChildren } from 'preact';
import type { Answer, paths } from '../../client/index.js';
import { PagedTable } from '../components/paged-table.js';
import { ProblemMessage } from '../components/problem-message.js';
import { useAnswer } from '../components/use-answer.js';
import type { PageProps } from '../pages.js';
import type { Problem } from '../problem.js';

type Health = paths['/readyz']['get']['responses'][200]['content']['application/health+json'];
type Check = NonNullable<Health['checks']>[string][number];

/** How many versions before the latest the page names, with their summary; the rest are a link away. */
const EARLIER_SHOWN = 2;

/**
 * A health answer, whether it passes or not: a failing check answers 503 with the same health
 * document, which the client reads as an answer not of the API's catalogue, body kept.
 */
function healthOf(answer: Answer<Health>): { readonly health: Health } | { readonly problem: Problem } {
  if (answer.ok) return { health: answer.data };
  if (answer.failure?.kind === 'unreadable' && answer.failure.status === 503)
    try {
      return { health: JSON.parse(answer.failure.body) as Health };
    } catch {
      // Not a health document after all: shown as the problem it is.
    }
  return { problem: answer };
}

const STATUS_WORDS: Readonly<Record<Health['status'], string>> = {
  pass: 'pass: serving',
  warn: 'warn: serving, with concerns',
  fail: 'fail: send this instance no work',
};

function HealthReport({
  title,
  path,
  answer,
}: {
  readonly title: string;
  readonly path: string;
  readonly answer: Answer<Health>;
}) {
  const read = healthOf(answer);
  const id = `health-${path.slice(1)}`;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>
        {title} (<code>{path}</code>)
      </h3>
      {'problem' in read ? (
        <ProblemMessage problem={read.problem} />
      ) : (
        <>
          <p class={read.health.status === 'fail' ? 'problem' : undefined}>
            <strong>{STATUS_WORDS[read.health.status]}</strong>
            {read.health.output ? `: ${read.health.output}` : ''}
          </p>
          {read.health.checks === undefined ? null : Object.keys(read.health.checks).length === 0 ? (
            <p>No dependency to check: none is configured apart from the process.</p>
          ) : (
            <PagedTable
              caption={`Checks of ${title.toLowerCase()}`}
              rows={Object.entries(read.health.checks).flatMap(([name, checks]) =>
                checks.map((check, index) => ({ name, index, check })),
              )}
              rowKey={(row) => `${row.name}/${row.index}`}
              columns={[
                { header: 'Check', cell: (row) => row.name },
                { header: 'Status', cell: (row) => row.check.status },
                { header: 'Took', cell: (row) => `${row.check.observedValue} ${row.check.observedUnit}` },
                { header: 'Output', cell: (row: { check: Check }) => row.check.output ?? '' },
              ]}
            />
          )}
        </>
      )}
    </section>
  );
}

/** The parts of the OpenAPI document this page reads. */
interface ApiDocument {
  readonly info?: { readonly title?: string; readonly version?: string };
  readonly tags?: readonly { readonly name: string }[];
  readonly paths?: Readonly<
    Record<string, Readonly<Record<string, { readonly tags?: readonly string[]; readonly 'x-disabled'?: boolean }>>>
  >;
}

interface Family {
  readonly name: string;
  readonly operations: number;
  readonly off: number;
}

/** Each tag of the document (a family, or the service's own operations) with how many of its operations are turned off. */
function familiesOf(document: ApiDocument): Family[] {
  const counts = new Map<string, { operations: number; off: number }>();
  for (const tag of document.tags ?? []) counts.set(tag.name, { operations: 0, off: 0 });
  for (const operations of Object.values(document.paths ?? {}))
    for (const operation of Object.values(operations)) {
      const name = operation?.tags?.[0];
      if (typeof name !== 'string') continue;
      const count = counts.get(name) ?? { operations: 0, off: 0 };
      count.operations += 1;
      if (operation['x-disabled'] === true) count.off += 1;
      counts.set(name, count);
    }
  return [...counts].filter(([, count]) => count.operations > 0).map(([name, count]) => ({ name, ...count }));
}

/** On, or off in bold: what the operator turned off is what a reader looks for. */
const familyState = ({ operations, off }: Family) =>
  off === 0 ? 'on' : <strong>{off === operations ? 'off' : `partly off (${off} of ${operations} operations)`}</strong>;

interface Release {
  readonly title: string;
  readonly date: string;
  readonly description: string;
}

/** The change log feed's items, newest first as the feed lists them. */
function releasesOf(feed: string): Release[] | undefined {
  const xml = new DOMParser().parseFromString(feed, 'application/xml');
  if (xml.querySelector('parsererror')) return undefined;
  return [...xml.querySelectorAll('item')].map((item) => ({
    title: item.querySelector('title')?.textContent ?? '',
    date: item.querySelector('pubDate')?.textContent ?? '',
    description: item.querySelector('description')?.textContent ?? '',
  }));
}

/** A release's description as the feed writes it: a summary, then "Added:" and the like, each followed by "- " lines. */
function ReleaseNotes({ text }: { readonly text: string }) {
  const blocks: ComponentChildren[] = [];
  let items: string[] = [];
  const endList = () => {
    if (items.length > 0)
      blocks.push(
        <ul key={blocks.length}>
          {items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>,
      );
    items = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) {
      items.push(line.slice(2));
      continue;
    }
    endList();
    if (line.trim() !== '') blocks.push(<p key={blocks.length}>{line}</p>);
  }
  endList();
  return <>{blocks}</>;
}

/** The service itself: health and readiness, the version, which families are on, and what changed lately. */
export function ServicePage({ session }: PageProps) {
  const { api } = session;
  const [live, reloadLive] = useAnswer(() => api.GET('/livez'));
  const [ready, reloadReady] = useAnswer(() => api.GET('/readyz'));
  const [document] = useAnswer(() => api.GET('/api/openapi.json'));
  const [changes] = useAnswer(() => api.GET('/api/changelog'));
  const read = document.state === 'done' && document.answer.ok ? (document.answer.data as ApiDocument) : undefined;
  const releases = changes.state === 'done' && changes.answer.ok ? releasesOf(changes.answer.data) : undefined;
  return (
    <>
      <section aria-labelledby="health">
        <h2 id="health">Health</h2>
        <div class="actions">
          <button
            type="button"
            onClick={() => {
              reloadLive();
              reloadReady();
            }}
          >
            Check again
          </button>
        </div>
        {live.state === 'loading' ? (
          <p>Loading…</p>
        ) : (
          <HealthReport title="Liveness" path="/livez" answer={live.answer} />
        )}
        {ready.state === 'loading' ? (
          <p>Loading…</p>
        ) : (
          <HealthReport title="Readiness" path="/readyz" answer={ready.answer} />
        )}
      </section>
      <section aria-labelledby="version">
        <h2 id="version">Version</h2>
        <Answered loading={document}>
          {() => (
            <p>
              {read?.info?.title ?? 'The API'} <strong>{read?.info?.version ?? 'of no version given'}</strong>,
              described by <a href="/api/openapi.json">its OpenAPI document</a> and <a href="/docs">the reference</a>.
            </p>
          )}
        </Answered>
      </section>
      <section aria-labelledby="families">
        <h2 id="families">Families</h2>
        <p>
          Each family of operations, as the reference groups them. The operator turns one off with{' '}
          <code>features.disabled</code>: its operations then answer 423 code 23.
        </p>
        {read && (
          <PagedTable
            caption="Families and whether they are on"
            rows={familiesOf(read)}
            pageSize={50}
            rowKey={(family) => family.name}
            columns={[
              { header: 'Family', cell: (family) => family.name },
              { header: 'State', cell: familyState },
              { header: 'Operations', cell: (family) => family.operations },
            ]}
          />
        )}
      </section>
      <section aria-labelledby="changes">
        <h2 id="changes">Latest changes</h2>
        <Answered loading={changes}>
          {() =>
            releases === undefined ? (
              <p class="problem" role="alert">
                The change log feed could not be read as RSS.
              </p>
            ) : (
              releases.slice(0, EARLIER_SHOWN + 1).map((release, index) => (
                <article key={release.title} class="release">
                  <h3>
                    {release.title}
                    {release.date && `, ${new Date(release.date).toLocaleDateString()}`}
                  </h3>
                  {/* The latest in full; those before it by their summary, the feed's first line. */}
                  {index === 0 ? (
                    <ReleaseNotes text={release.description} />
                  ) : (
                    <p>{release.description.split('\n')[0]}</p>
                  )}
                </article>
              ))
            )
          }
        </Answered>
        <p>
          <a href="/changelog">The whole change log</a> (also <a href="/api/changelog">as an RSS feed</a>).
        </p>
      </section>
    </>
  );
}
