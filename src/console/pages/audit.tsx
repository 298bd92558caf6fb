import { Answered } from '../components/answered.js';
import { useState } from 'preact/hooks';
import type { paths } from '../../client/index.js';
import { CursorPager, PAGE_LIMIT, useCursorPages } from '../components/cursor-pages.js';
import { when } from '../format.js';
import type { PageProps } from '../pages.js';
import { holds } from '../permissions.js';

type AuditQuery = NonNullable<paths['/api/audit']['get']['parameters']['query']>;
type Entry = paths['/api/audit']['get']['responses'][200]['content']['application/json']['entries'][number];
type Action = NonNullable<AuditQuery['action']>;

/** Each action the trail records, in words; typed by the API's list, so that a new action cannot be left out. */
const ACTIONS: { readonly [A in Action]: string } = {
  'user.create': 'user created',
  'user.update': 'user changed',
  'user.delete': 'user deleted',
  'token.create': 'token created',
  'token.update': 'token changed',
  'token.delete': 'token deleted',
  'token.rotate': 'token rotated',
  'login.password': 'password sign-in',
  'features.update': 'feature switches changed',
};

const isAction = (value: string): value is Action => Object.hasOwn(ACTIONS, value);

interface Filters {
  readonly actor: string;
  readonly target: string;
  readonly action: Action | '';
  /** As the browser's date and time fields give them: local time, no zone. */
  readonly from: string;
  readonly to: string;
}

const NO_FILTER: Filters = { actor: '', target: '', action: '', from: '', to: '' };

/** A local date and time of a form's field as the instant the API reads, or undefined when left empty. */
const instantOf = (local: string): string | undefined => (local === '' ? undefined : new Date(local).toISOString());

/** Fields the trail records as instants (`expiresAt`, `rotationEndsAt`): shown as the page's other dates are. */
const INSTANT_FIELD = /At$/;

/** A value of a change, as the trail stored it: text as it is, instants as dates, lists joined, nothing as "none". */
function shown(value: unknown, field = ''): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string' && INSTANT_FIELD.test(field) && !Number.isNaN(Date.parse(value))) return when(value);
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((each) => shown(each)).join(', ');
  return JSON.stringify(value);
}

/** Who made an entry, as a person reads it. */
const actorOf = (entry: Entry): string =>
  entry.actor.username ?? entry.actor.uid ?? (entry.actor.via === 'http' ? 'someone unknown' : 'the operator');

/** What an entry is about, as a person reads it. */
const targetOf = (entry: Entry): string => `${entry.target.type} ${entry.target.label ?? entry.target.id ?? ''}`.trim();

/**
 * The audit trail: everybody's entries with Audit::Read, otherwise what I did and what was done
 * to me and my tokens; filtered by actor, target, action and time, a page at a time; each
 * change as it was before and after.
 */
export function AuditPage({ session }: PageProps) {
  const { api } = session;
  const [filters, setFilters] = useState<Filters>(NO_FILTER);
  const pages = useCursorPages(
    (cursor) => {
      const from = instantOf(filters.from);
      const to = instantOf(filters.to);
      return api.GET('/api/audit', {
        params: {
          query: {
            limit: PAGE_LIMIT,
            ...(filters.actor === '' ? {} : { actor: filters.actor }),
            ...(filters.target === '' ? {} : { target: filters.target }),
            ...(filters.action === '' ? {} : { action: filters.action }),
            ...(from === undefined ? {} : { from }),
            ...(to === undefined ? {} : { to }),
            ...(cursor === undefined ? {} : { cursor }),
          },
        },
      });
    },
    [filters],
  );
  const list = pages.page;
  // The form is the filters being written; they apply when it is submitted.
  const [form, setForm] = useState<Filters>(filters);
  const apply = (next: Filters) => {
    setForm(next);
    setFilters(next);
    // A cursor holds only with the filters it was given with.
    pages.restart();
  };
  const edit = (field: keyof Filters) => (event: Event) =>
    setForm({ ...form, [field]: (event.currentTarget as HTMLInputElement).value });
  return (
    <>
      <p>
        {holds(session.token.permissions, 'Audit::Read')
          ? 'Every change to users and tokens, and every password sign-in, newest first.'
          : 'What you did, and what was done to you and your tokens, newest first (Audit::Read shows everybody’s).'}{' '}
        Secrets are never recorded: a changed password or secret is said to have changed, no more.
      </p>
      <form
        class="filters"
        role="search"
        aria-label="Filter the entries"
        onSubmit={(event) => {
          event.preventDefault();
          apply(form);
        }}
      >
        <label>
          Actor (a user’s uid)
          <input name="actor" value={form.actor} onInput={edit('actor')} autocomplete="off" />
        </label>
        <label>
          Target (a user’s uid or a token’s id)
          <input name="target" value={form.target} onInput={edit('target')} autocomplete="off" />
        </label>
        <label>
          Action
          <select
            name="action"
            value={form.action}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setForm({ ...form, action: isAction(value) ? value : '' });
            }}
          >
            <option value="">any</option>
            {Object.entries(ACTIONS).map(([action, words]) => (
              <option key={action} value={action}>
                {action} ({words})
              </option>
            ))}
          </select>
        </label>
        <label>
          From (at or after)
          <input name="from" type="datetime-local" value={form.from} onInput={edit('from')} />
        </label>
        <label>
          To (before)
          <input name="to" type="datetime-local" value={form.to} onInput={edit('to')} />
        </label>
        <div class="actions">
          <button type="submit" class="primary">
            Filter
          </button>
          <button type="button" onClick={() => apply(NO_FILTER)}>
            Clear the filters
          </button>
        </div>
      </form>
      <Answered loading={list}>
        {(data) =>
          data.entries.length === 0 ? (
            <p>No entry matches.</p>
          ) : (
            <>
              <ol class="audit-entries" aria-label="Audit entries" start={(pages.number - 1) * PAGE_LIMIT + 1}>
                {data.entries.map((entry) => (
                  <AuditEntry
                    key={entry.id}
                    entry={entry}
                    onActor={(uid) => apply({ ...filters, actor: uid })}
                    onTarget={(id) => apply({ ...filters, target: id })}
                  />
                ))}
              </ol>
              <CursorPager label="Pages of entries" pages={pages} />
            </>
          )
        }
      </Answered>
    </>
  );
}

function AuditEntry({
  entry,
  onActor,
  onTarget,
}: {
  readonly entry: Entry;
  readonly onActor: (uid: string) => void;
  readonly onTarget: (id: string) => void;
}) {
  const changes = Object.entries(entry.changes);
  const { actor, target } = entry;
  return (
    <li class="audit-entry">
      <p class="entry-head">
        <strong>
          <code>{entry.action}</code> {ACTIONS[entry.action as Action] ?? ''}
        </strong>
        {entry.outcome === 'failure' ? ', refused' : ''}, {when(entry.at)}
      </p>
      <dl class="facts">
        <dt>By</dt>
        <dd>
          {actorOf(entry)} (through{' '}
          {actor.via === 'http' ? 'the API' : actor.via === 'cli' ? 'the CLI' : 'the settings'}
          {entry.address ? `, from ${entry.address}` : ''}){' '}
          {actor.uid !== null && (
            <button type="button" onClick={() => onActor(actor.uid!)}>
              Only by {actorOf(entry)}
            </button>
          )}
        </dd>
        <dt>On</dt>
        <dd>
          {targetOf(entry)}{' '}
          {target.id !== null && target.type !== 'features' && (
            <>
              (<code>{target.id}</code>){' '}
              <button type="button" onClick={() => onTarget(target.id!)}>
                Only on this {target.type}
              </button>
            </>
          )}
        </dd>
      </dl>
      {changes.length > 0 && (
        <div class="table-box" tabIndex={0} role="region" aria-label={`Changes of entry ${entry.id}`}>
          <table>
            <caption>What changed</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {changes.map(([field, change]) => (
                <tr key={field}>
                  <th scope="row">{field}</th>
                  {'changed' in change ? (
                    <td colSpan={2}>changed (a secret: not recorded)</td>
                  ) : (
                    <>
                      <td>{shown(change.old, field)}</td>
                      <td>{shown(change.new, field)}</td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}
