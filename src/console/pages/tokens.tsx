import { Answered } from '../components/answered.js';
import { useState } from 'preact/hooks';
import type { paths } from '../../client/index.js';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog.js';
import { PagedTable } from '../components/paged-table.js';
import { PermissionPicker } from '../components/permission-picker.js';
import { ProblemMessage } from '../components/problem-message.js';
import { SecretBox } from '../components/secret-box.js';
import { UsageChart } from '../components/usage-chart.js';
import { useAnswer } from '../components/use-answer.js';
import { daysAgo, when } from '../format.js';
import { givable, knownPermissions } from '../known-permissions.js';
import type { PageProps } from '../pages.js';
import type { Problem } from '../problem.js';
import type { Session } from '../session.js';

type Token = paths['/api/token/list']['get']['responses'][200]['content']['application/json'][number];
type CreateBody = NonNullable<paths['/api/token/create']['post']['requestBody']>['content']['application/json'];

/** What a token is now, in a word or two. */
function stateOf(token: Token): string {
  if (token.disabled) return 'disabled';
  if (token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now()) return 'expired';
  if (token.rotatedTo !== null)
    return token.rotationEndsAt !== null && Date.parse(token.rotationEndsAt) > Date.now()
      ? `rotated, works until ${when(token.rotationEndsAt)}`
      : 'rotated';
  return 'active';
}

const nameOf = (token: Token): string => token.name ?? `(unnamed, ${token.prefix}…)`;

/** What a dialog of this page is open for, if any. */
type Open =
  | { readonly kind: 'create' }
  | { readonly kind: 'rename'; readonly token: Token }
  | { readonly kind: 'rotate'; readonly token: Token }
  | { readonly kind: 'delete'; readonly token: Token }
  | { readonly kind: 'disable'; readonly token: Token }
  | { readonly kind: 'secret'; readonly title: string; readonly secret: string };

/** My tokens: listed a page at a time; created, renamed, disabled, enabled, rotated and deleted; each one's usage. */
export function TokensPage({ session, forgetSession }: PageProps) {
  const { api } = session;
  const [list, reload] = useAnswer(() => api.GET('/api/token/list'));
  const [open, setOpen] = useState<Open | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [done, setDone] = useState('');
  const [watched, setWatched] = useState<Token | undefined>();
  const close = () => setOpen(undefined);
  const isThisSignIn = (token: Token) => token.id === session.token.id;
  /** An action's answer: said as done, or its problem shown; the list read again either way. */
  const settle = (refused: Problem | undefined, said: string): boolean => {
    reload();
    setProblem(refused);
    setDone(refused ? '' : said);
    return refused === undefined;
  };
  const setDisabled = async (token: Token, disabled: boolean) => {
    close();
    const answer = await api.PATCH('/api/token/update', { params: { query: { id: token.id } }, body: { disabled } });
    settle(answer.ok ? undefined : answer, `${nameOf(token)} is ${disabled ? 'disabled' : 'enabled'}.`);
  };
  const remove = async (token: Token) => {
    close();
    const answer = await api.DELETE('/api/token/delete', { params: { query: { id: token.id } } });
    // The token signed in with is gone: nothing more can be done with it.
    if (answer.ok && isThisSignIn(token)) return forgetSession();
    settle(answer.ok ? undefined : answer, `${nameOf(token)} is deleted.`);
  };
  return (
    <>
      <p>
        Each token is a key to the API with its own permissions, expiry and limits. The secret of a token is shown once,
        when it is made or rotated.
      </p>
      <div class="actions">
        <button type="button" class="primary" onClick={() => setOpen({ kind: 'create' })}>
          Create a token
        </button>
      </div>
      <p role="status">{done}</p>
      <ProblemMessage problem={problem} />
      <Answered loading={list}>
        {(data) => (
          <PagedTable
            caption="My tokens"
            rows={data}
            rowKey={(token) => token.id}
            columns={[
              {
                header: 'Name',
                cell: (token) => (isThisSignIn(token) ? `${nameOf(token)} (this sign-in)` : nameOf(token)),
              },
              { header: 'Prefix', cell: (token) => <code>{token.prefix}</code> },
              {
                header: 'Permissions',
                cell: (token) => token.permissions.map((permission) => <code key={permission}>{permission} </code>),
              },
              { header: 'Created', cell: (token) => when(token.createdAt) },
              { header: 'Last used', cell: (token) => when(token.lastUsedAt) },
              { header: 'Expires', cell: (token) => when(token.expiresAt) },
              { header: 'Uses', cell: (token) => token.uses },
              { header: 'State', cell: stateOf },
              {
                header: 'Actions',
                cell: (token) => (
                  <div class="row-actions" role="group" aria-label={`Actions on ${nameOf(token)}`}>
                    <button type="button" onClick={() => setWatched(token)}>
                      Usage
                    </button>
                    <button type="button" onClick={() => setOpen({ kind: 'rename', token })}>
                      Rename
                    </button>
                    {token.disabled ? (
                      <button type="button" onClick={() => void setDisabled(token, false)}>
                        Enable
                      </button>
                    ) : (
                      <button
                        type="button"
                        onClick={() =>
                          isThisSignIn(token) ? setOpen({ kind: 'disable', token }) : void setDisabled(token, true)
                        }
                      >
                        Disable
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={token.rotatedTo !== null}
                      onClick={() => setOpen({ kind: 'rotate', token })}
                    >
                      Rotate
                    </button>
                    <button type="button" class="danger" onClick={() => setOpen({ kind: 'delete', token })}>
                      Delete
                    </button>
                  </div>
                ),
              },
            ]}
          />
        )}
      </Answered>
      {watched && <TokenUsage session={session} token={watched} />}
      {open?.kind === 'create' && (
        <CreateToken
          session={session}
          onClose={close}
          onCreated={(secret, token) => {
            settle(undefined, `${token} is created.`);
            setOpen({ kind: 'secret', title: `The new token ${token}`, secret });
          }}
        />
      )}
      {open?.kind === 'secret' && (
        <Dialog title={open.title} onClose={close}>
          <SecretBox label="Secret" secret={open.secret} />
          <div class="actions">
            <button type="button" onClick={close}>
              I have copied it
            </button>
          </div>
        </Dialog>
      )}
      {open?.kind === 'rename' && (
        <Rename
          token={open.token}
          onClose={close}
          onRename={async (name) => {
            const answer = await api.PATCH('/api/token/update', {
              params: { query: { id: open.token.id } },
              body: { name },
            });
            if (settle(answer.ok ? undefined : answer, `${nameOf(open.token)} is now named ${name}.`)) close();
            return answer.ok ? undefined : answer;
          }}
        />
      )}
      {open?.kind === 'rotate' && (
        <Rotate
          session={session}
          token={open.token}
          onClose={close}
          onRotated={(secret) => {
            settle(undefined, `${nameOf(open.token)} is rotated.`);
            setOpen({ kind: 'secret', title: `The rotated token ${nameOf(open.token)}`, secret });
          }}
        />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete the token?"
          message={
            <>
              The token <strong>{nameOf(open.token)}</strong> ({open.token.prefix}…) will be refused from its next use,
              and cannot be brought back.
              {isThisSignIn(open.token) && ' It is the token this console is signed in with: you will be signed out.'}
            </>
          }
          confirmLabel="Delete the token"
          onConfirm={() => void remove(open.token)}
          onCancel={close}
        />
      )}
      {open?.kind === 'disable' && (
        <ConfirmDialog
          title="Disable this sign-in's token?"
          message="The console is signed in with this token: once it is disabled, the console can do nothing more until you sign in again."
          confirmLabel="Disable the token"
          onConfirm={() => void setDisabled(open.token, true)}
          onCancel={close}
        />
      )}
    </>
  );
}

/** The lifetimes the create form offers, in `expiresIn`'s words. */
const LIFETIMES = [
  { value: '1h', label: 'in an hour', ms: 3_600_000 },
  { value: '1d', label: 'in a day', ms: 86_400_000 },
  { value: '7d', label: 'in a week', ms: 7 * 86_400_000 },
  { value: '30d', label: 'in 30 days', ms: 30 * 86_400_000 },
  { value: '90d', label: 'in 90 days', ms: 90 * 86_400_000 },
  { value: '1y', label: 'in a year', ms: 365 * 86_400_000 },
];

/**
 * What may be asked of a token made by a token expiring at `ceiling`: the server would cut a longer
 * lifetime down to it, so only the shorter are offered, and the ceiling itself in place of "never".
 */
function lifetimesWithin(ceiling: string | null): { value: string; label: string }[] {
  if (ceiling === null) return [{ value: '', label: 'never' }, ...LIFETIMES];
  const left = Date.parse(ceiling) - Date.now();
  return [
    { value: '', label: `with this sign-in, ${when(ceiling)}` },
    ...LIFETIMES.filter((lifetime) => lifetime.ms < left),
  ];
}

/** A number field's value, or undefined when left empty. */
const numberOf = (form: FormData, name: string): number | undefined => {
  const value = String(form.get(name) ?? '').trim();
  return value === '' ? undefined : Number(value);
};

function CreateToken({
  session,
  onClose,
  onCreated,
}: {
  readonly session: Session;
  readonly onClose: () => void;
  readonly onCreated: (secret: string, name: string) => void;
}) {
  const { api } = session;
  const [known] = useAnswer(() => knownPermissions(api));
  const [selected, setSelected] = useState<string[]>([]);
  const [problem, setProblem] = useState<Problem | undefined>();
  // Until the server's list is read, or if it cannot be, what this sign-in holds as it holds it.
  const offered =
    known.state === 'done' && known.answer.ok
      ? givable(session.token.permissions, known.answer.data)
      : session.token.permissions;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(form.get('name')).trim();
    const body: CreateBody = { name };
    if (selected.length > 0) body.permissions = selected;
    const expiresIn = String(form.get('expiresIn'));
    if (expiresIn !== '') body.expiresIn = expiresIn;
    const requests = numberOf(form, 'rateRequests');
    const perSeconds = numberOf(form, 'ratePerSeconds');
    if (requests !== undefined || perSeconds !== undefined)
      body.rateLimit = { requests: requests ?? Number.NaN, perSeconds: perSeconds ?? Number.NaN };
    const quota = numberOf(form, 'quotaRequests');
    if (quota !== undefined) body.quota = { requests: quota, per: form.get('quotaPer') === 'month' ? 'month' : 'day' };
    const networks = String(form.get('allowedAddresses'))
      .split(/[\s,]+/)
      .filter((network) => network !== '');
    if (networks.length > 0) body.allowedAddresses = networks;
    const created = await api.POST('/api/token/create', { body });
    if (created.ok) onCreated(created.data.token, name);
    else setProblem(created);
  };
  return (
    <Dialog title="Create a token" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)}>
        <ProblemMessage problem={problem} />
        <label>
          Name
          <input name="name" required maxLength={100} data-autofocus />
        </label>
        {known.state === 'done' && !known.answer.ok && <ProblemMessage problem={known.answer} />}
        {known.state === 'loading' ? (
          <p>Loading the permissions…</p>
        ) : (
          <PermissionPicker
            legend="Permissions (none chosen: all that this sign-in holds)"
            offered={offered}
            selected={selected}
            onChange={setSelected}
          />
        )}
        <label>
          Expires
          <select name="expiresIn">
            {lifetimesWithin(session.token.expiresAt).map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {session.token.expiresAt !== null && (
          <p class="hint">
            A token never outlives the token that made it: those made in this sign-in expire by{' '}
            {when(session.token.expiresAt)} at the latest. Sign in with a token that lives longer to make longer ones.
          </p>
        )}
        <fieldset>
          <legend>Rate limit (empty: yours, or the installation's)</legend>
          <label>
            Requests
            <input name="rateRequests" type="number" min={1} inputMode="numeric" />
          </label>
          <label>
            Per seconds
            <input name="ratePerSeconds" type="number" min={1} inputMode="numeric" />
          </label>
        </fieldset>
        <fieldset>
          <legend>Quota (empty: none of its own)</legend>
          <label>
            Requests
            <input name="quotaRequests" type="number" min={1} inputMode="numeric" />
          </label>
          <label>
            Per
            <select name="quotaPer">
              <option value="day">UTC day</option>
              <option value="month">calendar month</option>
            </select>
          </label>
        </fieldset>
        <label>
          Allowed client networks (one per line, such as 203.0.113.0/24; empty: anywhere)
          <textarea name="allowedAddresses" rows={3} />
        </label>
        <FormActions submit="Create" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function Rename({
  token,
  onClose,
  onRename,
}: {
  readonly token: Token;
  readonly onClose: () => void;
  readonly onRename: (name: string) => Promise<Problem | undefined>;
}) {
  const [problem, setProblem] = useState<Problem | undefined>();
  return (
    <Dialog title={`Rename ${nameOf(token)}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const name = String(new FormData(event.currentTarget).get('name')).trim();
          void onRename(name).then(setProblem);
        }}
      >
        <ProblemMessage problem={problem} />
        <label>
          New name
          <input name="name" required maxLength={100} defaultValue={token.name ?? ''} data-autofocus />
        </label>
        <FormActions submit="Rename" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function Rotate({
  session,
  token,
  onClose,
  onRotated,
}: {
  readonly session: Session;
  readonly token: Token;
  readonly onClose: () => void;
  readonly onRotated: (secret: string) => void;
}) {
  const [problem, setProblem] = useState<Problem | undefined>();
  return (
    <Dialog title={`Rotate ${nameOf(token)}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const graceSeconds = Number(new FormData(event.currentTarget).get('graceSeconds'));
          void session.api
            .POST('/api/token/rotate', { params: { query: { id: token.id } }, body: { graceSeconds } })
            .then((rotated) => (rotated.ok ? onRotated(rotated.data.token) : setProblem(rotated)));
        }}
      >
        <p>
          A new token replaces this one, with what it holds. The old secret keeps working for the grace period, time to
          put the new one where the old one is used.
        </p>
        <ProblemMessage problem={problem} />
        <label>
          Grace period, in seconds (0 to 604800)
          <input name="graceSeconds" type="number" min={0} max={604800} defaultValue={86400} required data-autofocus />
        </label>
        <FormActions submit="Rotate" onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function TokenUsage({ session, token }: { readonly session: Session; readonly token: Token }) {
  const [group, setGroup] = useState<'operation' | 'status'>('operation');
  const [usage] = useAnswer(
    () =>
      session.api.GET('/api/token/usage', {
        params: { query: { id: token.id, from: daysAgo(7), by: 'hour', group } },
      }),
    [token.id, group],
  );
  return (
    <section aria-labelledby="token-usage">
      <h2 id="token-usage">Usage of {nameOf(token)}, last 7 days</h2>
      <label>
        One line per
        <select
          value={group}
          onChange={(event) => setGroup(event.currentTarget.value === 'status' ? 'status' : 'operation')}
        >
          <option value="operation">operation</option>
          <option value="status">status class</option>
        </select>
      </label>
      <Answered loading={usage}>
        {(data) => <UsageChart usage={data} title={`Requests of ${nameOf(token)} by ${group}`} />}
      </Answered>
    </section>
  );
}
