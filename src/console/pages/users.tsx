import { Answered } from '../components/answered.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { paths } from '../../client/index.js';
import { CursorPager, PAGE_LIMIT, useCursorPages } from '../components/cursor-pages.js';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog.js';
import { PagedTable } from '../components/paged-table.js';
import { PermissionPicker } from '../components/permission-picker.js';
import { ProblemMessage } from '../components/problem-message.js';
import { UsageChart } from '../components/usage-chart.js';
import { useAnswer } from '../components/use-answer.js';
import { daysAgo, when } from '../format.js';
import { givable, knownPermissions } from '../known-permissions.js';
import type { PageProps } from '../pages.js';
import { holds } from '../permissions.js';
import { describeProblem, type Problem } from '../problem.js';
import type { Session } from '../session.js';

type User = paths['/api/user/list']['get']['responses'][200]['content']['application/json']['users'][number];
type UserChanges = NonNullable<paths['/api/user/update']['patch']['requestBody']>['content']['application/json'];

/** How long typing must pause before the search is sent: one request per pause, not per key. */
const SEARCH_PAUSE_MS = 300;
/** The API's shortest password (docs/authentication.md), said in the form before the server says it. */
const MIN_PASSWORD_LENGTH = 10;

interface Filters {
  readonly query: string;
  readonly blocked: '' | 'true' | 'false';
  readonly permission: string;
}

/** A user as a person names them: the username, and the full name when there is one. */
const nameOf = (user: User): string => (user.fullName ? `${user.username} (${user.fullName})` : user.username);

/** The permission a refusal (403 code 1) says is missing, as the API words it ("Missing permission X"). */
const missingPermission = (problem: Problem): string | undefined =>
  problem.error?.code === 1 ? /^Missing permission (\S+)$/.exec(problem.error.details ?? '')?.[1] : undefined;

/**
 * Why the API refused a change to `user`, in words: most often the rank rule (nobody acts on a
 * user holding a permission they lack), which the API's answer names only by that permission.
 */
function refusalInWords(problem: Problem, user: User, giving: readonly string[]): string | undefined {
  const missing = missingPermission(problem);
  if (missing === undefined) return undefined;
  if (user.permissions.includes(missing))
    return (
      `${user.username} holds ${missing}, which this sign-in does not. Nobody may change the permissions, email or ` +
      `password of a user who holds more than they do, nor block them, delete them or make them a token.`
    );
  if (giving.includes(missing))
    return `This sign-in does not hold ${missing}, so it cannot give it: permissions are given only by those who hold them.`;
  return `This change needs ${missing}, which this sign-in does not hold.`;
}

/** A refusal of a change to a user: the reason in words when there is one, then the API's own answer with its code. */
function Refused({
  problem,
  user,
  giving = [],
}: {
  readonly problem: Problem | undefined;
  readonly user: User;
  /** The permissions the refused change gave. */
  readonly giving?: readonly string[];
}) {
  if (problem === undefined) return null;
  const words = refusalInWords(problem, user, giving);
  if (words === undefined) return <ProblemMessage problem={problem} />;
  return (
    <div class="problem" role="alert">
      <p>{words}</p>
      <p>{describeProblem(problem)}</p>
    </div>
  );
}

type Open =
  | { readonly kind: 'create' }
  | { readonly kind: 'edit'; readonly user: User }
  | { readonly kind: 'block'; readonly user: User }
  | { readonly kind: 'delete'; readonly user: User };

/**
 * The users (for holders of Users::Read): found as one types, filtered by blocked and by a
 * permission held, a page at a time; created, edited, blocked and unblocked, deleted after a
 * confirmation; each one's tokens and usage.
 */
export function UsersPage({ session }: PageProps) {
  const { api } = session;
  const [filters, setFilters] = useState<Filters>({ query: '', blocked: '', permission: '' });
  const [typed, setTyped] = useState(filters.query);
  const searchBox = useRef<HTMLInputElement>(null);
  const pages = useCursorPages(
    (cursor) =>
      api.GET('/api/user/list', {
        params: {
          query: {
            limit: PAGE_LIMIT,
            ...(filters.query === '' ? {} : { query: filters.query }),
            ...(filters.blocked === '' ? {} : { blocked: filters.blocked === 'true' }),
            ...(filters.permission === '' ? {} : { permission: filters.permission }),
            ...(cursor === undefined ? {} : { cursor }),
          },
        },
      }),
    [filters],
  );
  const { page: list, reload } = pages;
  /** Some filters changed, the others kept: from the first page again, since a cursor holds only with its filters. */
  const refine = (change: Partial<Filters>) => {
    setFilters((now) => ({ ...now, ...change }));
    pages.restart();
  };
  const [known] = useAnswer(() => knownPermissions(api));
  const [open, setOpen] = useState<Open | undefined>();
  const [problem, setProblem] = useState<{ readonly problem: Problem; readonly user?: User } | undefined>();
  const [done, setDone] = useState('');
  // Each opening reads them again: a second click on the same user is a person asking for what is new.
  const [watched, setWatched] = useState<{ readonly user: User; readonly opening: number } | undefined>();
  const may = (permission: string) => holds(session.token.permissions, permission);
  useEffect(() => {
    if (typed === filters.query) return;
    const timer = setTimeout(() => refine({ query: typed }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const close = () => setOpen(undefined);
  /** An action's answer: said as done, or its problem shown; the page read again either way. */
  const settle = (refused: Problem | undefined, said: string, user?: User): boolean => {
    reload();
    setProblem(refused && { problem: refused, user });
    setDone(refused ? '' : said);
    return refused === undefined;
  };
  const setBlocked = async (user: User, blocked: boolean) => {
    close();
    const answer = await api.PATCH('/api/user/update', {
      params: { header: { 'x-uid': user.uid } },
      body: { blocked },
    });
    settle(answer.ok ? undefined : answer, `${nameOf(user)} is ${blocked ? 'blocked' : 'unblocked'}.`, user);
  };
  const remove = async (user: User) => {
    close();
    const answer = await api.DELETE('/api/user/delete', { params: { header: { 'x-uid': user.uid } } });
    if (answer.ok && watched?.user.uid === user.uid) setWatched(undefined);
    // The row and its buttons, where the focus went back to, are gone: the search is the next place to be.
    if (settle(answer.ok ? undefined : answer, `${nameOf(user)} is deleted, with their tokens.`, user))
      searchBox.current?.focus();
  };
  const permissionsKnown = known.state === 'done' && known.answer.ok ? known.answer.data : [];
  return (
    <>
      <p>
        The people who hold tokens of this server. What this sign-in may do to each of them depends on its permissions,
        and nobody may act on a user who holds more than they do.
      </p>
      {may('Users::Create') && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => setOpen({ kind: 'create' })}>
            Create a user
          </button>
        </div>
      )}
      <form class="filters" role="search" aria-label="Find users" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search (the start of a username, email or name)
          <input
            ref={searchBox}
            type="search"
            name="query"
            value={typed}
            onInput={(event) => setTyped(event.currentTarget.value)}
          />
        </label>
        <label>
          Blocked
          <select
            value={filters.blocked}
            onChange={(event) => refine({ blocked: event.currentTarget.value as Filters['blocked'] })}
          >
            <option value="">blocked or not</option>
            <option value="true">blocked only</option>
            <option value="false">not blocked only</option>
          </select>
        </label>
        <label>
          Holding the permission
          <select value={filters.permission} onChange={(event) => refine({ permission: event.currentTarget.value })}>
            <option value="">any or none</option>
            {permissionsKnown.map((permission) => (
              <option key={permission} value={permission}>
                {permission}
              </option>
            ))}
          </select>
        </label>
      </form>
      {known.state === 'done' && !known.answer.ok && <ProblemMessage problem={known.answer} />}
      <p role="status">{done}</p>
      {problem &&
        (problem.user ? (
          <Refused problem={problem.problem} user={problem.user} />
        ) : (
          <ProblemMessage problem={problem.problem} />
        ))}
      <Answered loading={list}>
        {(data) => (
          <>
            <PagedTable
              caption="Users"
              empty="No user matches."
              rows={data.users}
              pageSize={PAGE_LIMIT}
              rowKey={(user) => user.uid}
              columns={[
                { header: 'Username', cell: (user) => user.username },
                {
                  header: 'Name and email',
                  cell: (user) => (
                    <>
                      {user.fullName ?? user.displayname ?? ''}
                      {user.email && (
                        <>
                          <br />
                          {user.email}
                        </>
                      )}
                    </>
                  ),
                },
                {
                  header: 'Permissions',
                  cell: (user) =>
                    user.permissions.length === 0
                      ? 'none'
                      : user.permissions.map((permission) => <code key={permission}>{permission} </code>),
                },
                { header: 'State', cell: (user) => (user.blocked ? 'blocked' : 'active') },
                { header: 'Created', cell: (user) => when(user.createdAt) },
                {
                  header: 'Actions',
                  cell: (user) => (
                    <div class="row-actions" role="group" aria-label={`Actions on ${user.username}`}>
                      <button type="button" onClick={() => setWatched({ user, opening: (watched?.opening ?? 0) + 1 })}>
                        Tokens and usage
                      </button>
                      {(may('Users::Update') || may('Users::Permissions')) && (
                        <button type="button" onClick={() => setOpen({ kind: 'edit', user })}>
                          Edit
                        </button>
                      )}
                      {may('Users::Block') &&
                        (user.blocked ? (
                          <button type="button" onClick={() => void setBlocked(user, false)}>
                            Unblock
                          </button>
                        ) : (
                          <button type="button" onClick={() => setOpen({ kind: 'block', user })}>
                            Block
                          </button>
                        ))}
                      {may('Users::Delete') && (
                        <button type="button" class="danger" onClick={() => setOpen({ kind: 'delete', user })}>
                          Delete
                        </button>
                      )}
                    </div>
                  ),
                },
              ]}
            />
            <CursorPager label="Pages of users" pages={pages} />
          </>
        )}
      </Answered>
      {watched && <UserDetails key={watched.opening} session={session} user={watched.user} />}
      {open?.kind === 'create' && (
        <CreateUser
          session={session}
          onClose={close}
          onCreated={(user) => {
            close();
            settle(undefined, `${nameOf(user)} is created, with no permissions yet: Edit gives them some.`);
          }}
        />
      )}
      {open?.kind === 'edit' && (
        <EditUser
          session={session}
          user={open.user}
          known={permissionsKnown}
          onClose={close}
          onSaved={(user) => {
            close();
            settle(undefined, `${nameOf(user)} is saved.`);
          }}
        />
      )}
      {open?.kind === 'block' && (
        <ConfirmDialog
          title="Block the user?"
          message={
            <>
              Every token of <strong>{nameOf(open.user)}</strong> will be refused (403, code 2) until they are
              unblocked.
              {open.user.uid === session.user.uid && ' It is you: this console will be refused too.'}
            </>
          }
          confirmLabel="Block the user"
          onConfirm={() => void setBlocked(open.user, true)}
          onCancel={close}
        />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete the user?"
          message={
            <>
              The user <strong>{nameOf(open.user)}</strong>
              {open.user.email ? ` (${open.user.email})` : ''} and all of their tokens will be deleted, and cannot be
              brought back.
              {open.user.uid === session.user.uid && ' It is you: this console will be signed out.'}
            </>
          }
          confirmLabel={`Delete ${open.user.username}`}
          onConfirm={() => void remove(open.user)}
          onCancel={close}
        />
      )}
    </>
  );
}

/** A form field's text, or undefined when left empty. */
const given = (form: FormData, name: string): string | undefined => {
  const value = String(form.get(name) ?? '');
  return value === '' ? undefined : value;
};

function CreateUser({
  session,
  onClose,
  onCreated,
}: {
  readonly session: Session;
  readonly onClose: () => void;
  readonly onCreated: (user: User) => void;
}) {
  const [problem, setProblem] = useState<Problem | undefined>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = given(form, 'username');
    const created = await session.api.POST('/api/user/create', {
      body: {
        firstname: String(form.get('firstname')),
        lastname: String(form.get('lastname')),
        email: String(form.get('email')),
        password: String(form.get('password')),
        ...(username === undefined ? {} : { username }),
      },
    });
    if (created.ok) onCreated(created.data);
    else setProblem(created);
  };
  return (
    <Dialog title="Create a user" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)}>
        <ProblemMessage problem={problem} />
        <label>
          First name
          <input name="firstname" required maxLength={100} autocomplete="off" data-autofocus />
        </label>
        <label>
          Last name
          <input name="lastname" required maxLength={100} autocomplete="off" />
        </label>
        <label>
          Email
          <input name="email" type="email" required maxLength={320} autocomplete="off" />
        </label>
        <label>
          Username (empty: made from the name)
          <input name="username" maxLength={32} autocomplete="off" />
        </label>
        <label>
          Password ({MIN_PASSWORD_LENGTH} characters or more; they sign in with it)
          <input name="password" type="password" required minLength={MIN_PASSWORD_LENGTH} autocomplete="new-password" />
        </label>
        <p class="hint">A new user holds no permission: give them some with Edit once they are made.</p>
        <FormActions submit="Create" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((each) => b.includes(each));

function EditUser({
  session,
  user,
  known,
  onClose,
  onSaved,
}: {
  readonly session: Session;
  readonly user: User;
  readonly known: readonly string[];
  readonly onClose: () => void;
  readonly onSaved: (user: User) => void;
}) {
  const [problem, setProblem] = useState<Problem | undefined>();
  const [giving, setGiving] = useState<readonly string[]>([]);
  const [unchanged, setUnchanged] = useState(false);
  const [selected, setSelected] = useState<string[]>([...user.permissions]);
  const held = session.token.permissions;
  const mayGrant = holds(held, 'Users::Permissions');
  // What this sign-in may give, and what the user holds already, which may be kept even when not held.
  const offered = [...new Set([...givable(held, known), ...user.permissions])];
  const names = { first: user.firstname ?? '', last: user.lastname ?? '' };
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const first = String(form.get('firstname'));
    const last = String(form.get('lastname'));
    const changes: UserChanges = {};
    // Each name that changed; one emptied is sent as it is, for the API to refuse in words.
    if (first !== names.first) changes.firstname = first;
    if (last !== names.last) changes.lastname = last;
    const displayname = String(form.get('displayname'));
    if (displayname !== (user.displayname ?? '')) changes.displayname = displayname;
    const email = String(form.get('email'));
    if (email !== (user.email ?? '')) changes.email = email;
    if (mayGrant && !sameSet(selected, user.permissions)) changes.perms = selected;
    if (Object.keys(changes).length === 0) {
      setUnchanged(true);
      return;
    }
    setUnchanged(false);
    const saved = await session.api.PATCH('/api/user/update', {
      params: { header: { 'x-uid': user.uid } },
      body: changes,
    });
    if (saved.ok) onSaved(saved.data.updatedUser);
    else {
      setGiving(changes.perms ?? []);
      setProblem(saved);
    }
  };
  return (
    <Dialog title={`Edit ${user.username}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)}>
        <Refused problem={problem} user={user} giving={giving} />
        {unchanged && <p role="status">Nothing is changed: there is nothing to save.</p>}
        <label>
          First name
          <input name="firstname" maxLength={100} defaultValue={names.first} autocomplete="off" data-autofocus />
        </label>
        <label>
          Last name
          <input name="lastname" maxLength={100} defaultValue={names.last} autocomplete="off" />
        </label>
        <label>
          Display name
          <input name="displayname" maxLength={100} defaultValue={user.displayname ?? ''} autocomplete="off" />
        </label>
        <label>
          Email
          <input name="email" type="email" maxLength={320} defaultValue={user.email ?? ''} autocomplete="off" />
        </label>
        {mayGrant ? (
          <PermissionPicker
            legend={`Permissions of ${user.username} (what this sign-in holds, and what they hold already)`}
            offered={offered}
            selected={selected}
            onChange={setSelected}
          />
        ) : (
          <p class="hint">Changing permissions needs Users::Permissions, which this sign-in does not hold.</p>
        )}
        <p class="hint">
          Names need only Users::Update; the email and the permissions also need every permission {user.username} holds.
        </p>
        <FormActions submit="Save" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** Whether a token of the list still works, in a word. */
const tokenState = (token: { disabled: boolean; expiresAt: string | null }): string =>
  token.disabled
    ? 'disabled'
    : token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now()
      ? 'expired'
      : 'active';

/** A user's tokens (`GET /api/token/list` for them) and their requests of the last 7 days. */
function UserDetails({ session, user }: { readonly session: Session; readonly user: User }) {
  const { api } = session;
  const mine = { params: { header: { 'x-uid': user.uid } } };
  const [tokens] = useAnswer(() => api.GET('/api/token/list', mine));
  const [group, setGroup] = useState<'status' | 'operation'>('status');
  const [usage] = useAnswer(
    () =>
      api.GET('/api/user/usage', {
        params: { header: mine.params.header, query: { from: daysAgo(7), by: 'hour', group } },
      }),
    [group],
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a row of the list above: the focus follows, so that the keyboard and screen readers are taken there.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="user-details">
      <h2 id="user-details" ref={heading} tabIndex={-1}>
        Tokens and usage of {nameOf(user)}
      </h2>
      <p>
        Uid <code>{user.uid}</code>, which the audit trail's filters take.
      </p>
      <Answered loading={tokens}>
        {(data) => (
          <PagedTable
            caption={`Tokens of ${user.username}`}
            rows={data}
            rowKey={(token) => token.id}
            columns={[
              { header: 'Name', cell: (token) => token.name ?? '(unnamed)' },
              { header: 'Prefix', cell: (token) => <code>{token.prefix}</code> },
              {
                header: 'Permissions',
                cell: (token) => token.permissions.map((permission) => <code key={permission}>{permission} </code>),
              },
              { header: 'Last used', cell: (token) => when(token.lastUsedAt) },
              { header: 'Expires', cell: (token) => when(token.expiresAt) },
              { header: 'Uses', cell: (token) => token.uses },
              { header: 'State', cell: tokenState },
            ]}
          />
        )}
      </Answered>
      <label>
        One line per
        <select
          value={group}
          onChange={(event) => setGroup(event.currentTarget.value === 'operation' ? 'operation' : 'status')}
        >
          <option value="status">status class</option>
          <option value="operation">operation</option>
        </select>
      </label>
      <Answered loading={usage}>
        {(data) => <UsageChart usage={data} title={`Requests of ${user.username} by ${group}, last 7 days`} />}
      </Answered>
    </section>
  );
}
