import { Answered } from '../components/answered.js';
import { StatusToolbar } from '../components/status-toolbar.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { paths } from '../../client/index.js';
import { CursorPager, PAGE_LIMIT, useCursorPages } from '../components/cursor-pages.js';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog.js';
import { PagedTable } from '../components/paged-table.js';
import { ProblemMessage } from '../components/problem-message.js';
import { SecretBox } from '../components/secret-box.js';
import { useAnswer } from '../components/use-answer.js';
import { when } from '../format.js';
import type { PageProps } from '../pages.js';
import { holds } from '../permissions.js';
import type { Problem } from '../problem.js';
import type { Session } from '../session.js';

type Webhook = paths['/api/webhook/list']['get']['responses'][200]['content']['application/json'][number];
type CreateBody = NonNullable<paths['/api/webhook/create']['post']['requestBody']>['content']['application/json'];
type UpdateBody = NonNullable<paths['/api/webhook/update']['patch']['requestBody']>['content']['application/json'];
type EventName = CreateBody['events'][number];
type Delivery =
  paths['/api/webhook/deliveries']['get']['responses'][200]['content']['application/json']['deliveries'][number];
type Attempt = Delivery['attempts'][number];
type TestOutcome = paths['/api/webhook/test']['post']['responses'][200]['content']['application/json'];
type DeliveryStatus = NonNullable<
  NonNullable<paths['/api/webhook/deliveries']['get']['parameters']['query']>['status']
>;

/**
 * Every event an endpoint may be sent, in the order offered; `*` (every one, and those added
 * later) is offered apart. The names are the API's (its document's enum, through the client's
 * types): the build fails when the API has an event this list lacks, below.
 */
const EVENTS = [
  'token.created',
  'token.rotated',
  'token.disabled',
  'token.deleted',
  'token.expiring',
  'quota.threshold',
  'user.blocked',
  'user.unblocked',
  'user.deleted',
  'mail.delivered',
  'mail.failed',
] as const satisfies readonly Exclude<EventName, '*'>[];
/** Never, unless the API names an event EVENTS does not offer: then this line does not compile. */
const EVERY_EVENT_OFFERED: [Exclude<EventName, '*' | (typeof EVENTS)[number]>] extends [never] ? true : never = true;
void EVERY_EVENT_OFFERED;
const EVERY_EVENT = '*';

/** An endpoint hearing every event of the installation, not only its owner's. */
const WEBHOOKS_ALL = 'Webhooks::All';

/** The secret the previous one keeps signing beside, while it does. */
const previousSigns = (webhook: { readonly previousSecretUntil: string | null }): boolean =>
  webhook.previousSecretUntil !== null && Date.parse(webhook.previousSecretUntil) > Date.now();

function stateOf(webhook: Webhook): string {
  const state = webhook.disabled ? 'disabled' : 'enabled';
  return previousSigns(webhook)
    ? `${state}; the previous secret also signs until ${when(webhook.previousSecretUntil)}`
    : state;
}

/** One attempt in words: the receiver's answer or why there was none, and how long it took. */
const attemptOutcome = (attempt: Pick<Attempt, 'status' | 'error' | 'durationMs'>): string =>
  `${attempt.status !== null ? `HTTP ${attempt.status}` : (attempt.error ?? 'no answer')} in ${attempt.durationMs} ms`;

/** What a dialog of this page is open for, if any. */
type Open =
  | { readonly kind: 'create' }
  | { readonly kind: 'edit'; readonly webhook: Webhook }
  | { readonly kind: 'rotate'; readonly webhook: Webhook }
  | { readonly kind: 'delete'; readonly webhook: Webhook }
  | { readonly kind: 'secret'; readonly title: string; readonly secret: string; readonly note?: string };

/**
 * My webhook endpoints: created (the signing secret shown once), edited, their secret rotated,
 * sent a test event, their deliveries read a page at a time and redelivered, deleted.
 */
export function WebhooksPage({ session }: PageProps) {
  const { api } = session;
  const [list, reload] = useAnswer(() => api.GET('/api/webhook/list'));
  const [open, setOpen] = useState<Open | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [done, setDone] = useState('');
  const [tested, setTested] = useState<{ readonly url: string; readonly outcome: TestOutcome } | undefined>();
  const [watched, setWatched] = useState<Webhook | undefined>();
  const close = () => setOpen(undefined);
  const settle = (refused: Problem | undefined, said: string): boolean => {
    reload();
    setProblem(refused);
    setDone(refused ? '' : said);
    return refused === undefined;
  };
  const test = async (webhook: Webhook) => {
    setTested(undefined);
    setDone(`Sending a test event to ${webhook.url}…`);
    const answer = await api.POST('/api/webhook/test', { params: { query: { id: webhook.id } } });
    setProblem(answer.ok ? undefined : answer);
    setDone('');
    if (answer.ok) setTested({ url: webhook.url, outcome: answer.data });
  };
  const remove = async (webhook: Webhook) => {
    close();
    const answer = await api.DELETE('/api/webhook/delete', { params: { query: { id: webhook.id } } });
    if (answer.ok && watched?.id === webhook.id) setWatched(undefined);
    settle(answer.ok ? undefined : answer, `The webhook to ${webhook.url} is deleted.`);
  };
  const rotate = async (webhook: Webhook) => {
    close();
    const answer = await api.POST('/api/webhook/rotate-secret', { params: { query: { id: webhook.id } } });
    if (!answer.ok) {
      settle(answer, '');
      return;
    }
    settle(undefined, `The secret of the webhook to ${webhook.url} is rotated.`);
    setOpen({
      kind: 'secret',
      title: `The new signing secret of ${webhook.url}`,
      secret: answer.data.secret,
      note: `The previous secret signs beside it until ${when(answer.data.previousSecretUntil)}: time to give the new one to the receiver.`,
    });
  };
  return (
    <>
      <p>
        A webhook is a URL of yours that the service sends events to, each signed with the webhook's secret (Standard
        Webhooks). The secret is shown once, when the webhook is made or its secret rotated.
      </p>
      <div class="actions">
        <button type="button" class="primary" onClick={() => setOpen({ kind: 'create' })}>
          Create a webhook
        </button>
      </div>
      <p role="status">{done}</p>
      <ProblemMessage problem={problem} />
      <TestResult tested={tested} />
      <Answered loading={list}>
        {(data) => (
          <PagedTable
            caption="My webhooks"
            empty="No webhooks yet: create one to be sent events as they happen."
            rows={data}
            rowKey={(webhook) => webhook.id}
            columns={[
              { header: 'URL', cell: (webhook) => <code class="url">{webhook.url}</code> },
              {
                header: 'Events',
                cell: (webhook) =>
                  // The space between the names, not inside them: a table's code does not wrap, the line may break there.
                  webhook.events.map((event) => (
                    <span key={event}>
                      <code>{event === EVERY_EVENT ? 'every event' : event}</code>{' '}
                    </span>
                  )),
              },
              { header: 'Description', cell: (webhook) => webhook.description ?? '' },
              { header: 'Hears', cell: (webhook) => (webhook.scope === 'all' ? 'everyone’s events' : 'my events') },
              { header: 'Created', cell: (webhook) => when(webhook.createdAt) },
              { header: 'State', cell: stateOf },
              {
                header: 'Actions',
                cell: (webhook) => (
                  <div class="row-actions" role="group" aria-label={`Actions on the webhook to ${webhook.url}`}>
                    <button type="button" onClick={() => setWatched(webhook)}>
                      Deliveries
                    </button>
                    <button type="button" onClick={() => void test(webhook)}>
                      Send a test
                    </button>
                    <button type="button" onClick={() => setOpen({ kind: 'edit', webhook })}>
                      Edit
                    </button>
                    <button type="button" onClick={() => setOpen({ kind: 'rotate', webhook })}>
                      Rotate the secret
                    </button>
                    <button type="button" class="danger" onClick={() => setOpen({ kind: 'delete', webhook })}>
                      Delete
                    </button>
                  </div>
                ),
              },
            ]}
          />
        )}
      </Answered>
      {watched && <Deliveries key={watched.id} session={session} webhook={watched} />}
      {open?.kind === 'create' && (
        <WebhookForm
          session={session}
          onClose={close}
          onSaved={(saved) => {
            settle(undefined, `The webhook to ${saved.url} is created.`);
            if ('secret' in saved)
              setOpen({ kind: 'secret', title: `The signing secret of ${saved.url}`, secret: saved.secret });
          }}
        />
      )}
      {open?.kind === 'edit' && (
        <WebhookForm
          session={session}
          webhook={open.webhook}
          onClose={close}
          onSaved={(saved) => {
            settle(undefined, `The webhook to ${saved.url} is saved.`);
            if (watched?.id === saved.id) setWatched(saved);
            close();
          }}
        />
      )}
      {open?.kind === 'secret' && (
        <Dialog title={open.title} onClose={close}>
          <SecretBox
            label="Signing secret"
            secret={open.secret}
            ifLost="a lost secret means rotating it, and giving the receiver the new one."
          />
          {open.note && <p>{open.note}</p>}
          <div class="actions">
            <button type="button" onClick={close}>
              I have copied it
            </button>
          </div>
        </Dialog>
      )}
      {open?.kind === 'rotate' && (
        <ConfirmDialog
          title="Rotate the signing secret?"
          message={
            <>
              The webhook to <strong>{open.webhook.url}</strong> gets a new secret, shown once. The current one keeps
              signing beside it for 24 hours
              {previousSigns(open.webhook)
                ? '; the one before it, which still signs now, stops at once.'
                : ', so that the receiver can switch without refusing a delivery.'}
            </>
          }
          confirmLabel="Rotate the secret"
          onConfirm={() => void rotate(open.webhook)}
          onCancel={close}
        />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete the webhook?"
          message={
            <>
              Nothing more will be sent to <strong>{open.webhook.url}</strong>, and its delivery log goes with it. This
              cannot be undone.
            </>
          }
          confirmLabel="Delete the webhook"
          onConfirm={() => void remove(open.webhook)}
          onCancel={close}
        />
      )}
    </>
  );
}

/** How the last test went: a status, said as soon as it comes. */
function TestResult({
  tested,
}: {
  readonly tested: { readonly url: string; readonly outcome: TestOutcome } | undefined;
}) {
  if (tested === undefined) return null;
  const { url, outcome } = tested;
  return (
    <p role="status" class={outcome.delivered ? undefined : 'problem'}>
      The test event to <code>{url}</code> {outcome.delivered ? 'was delivered' : 'was not delivered'}:{' '}
      {attemptOutcome(outcome)}.
    </p>
  );
}

/** The events picked, `*` alone, or none: the server refuses an empty list in words. */
function EventPicker({
  selected,
  onChange,
}: {
  readonly selected: readonly string[];
  readonly onChange: (events: string[]) => void;
}) {
  const every = selected.includes(EVERY_EVENT);
  const toggle = (event: string, on: boolean) =>
    onChange(on ? [...selected, event] : selected.filter((chosen) => chosen !== event));
  return (
    <fieldset class="event-picker">
      <legend>Events</legend>
      <label>
        <input
          type="checkbox"
          checked={every}
          onChange={(event) => onChange(event.currentTarget.checked ? [EVERY_EVENT] : [])}
        />{' '}
        Every event, those added later too
      </label>
      {EVENTS.map((name) => (
        <label key={name}>
          <input
            type="checkbox"
            disabled={every}
            checked={every || selected.includes(name)}
            onChange={(event) => toggle(name, event.currentTarget.checked)}
          />{' '}
          {name}
        </label>
      ))}
    </fieldset>
  );
}

/** Creates a webhook, or edits the one given. */
function WebhookForm({
  session,
  webhook,
  onClose,
  onSaved,
}: {
  readonly session: Session;
  readonly webhook?: Webhook;
  readonly onClose: () => void;
  readonly onSaved: (saved: Webhook | (Webhook & { readonly secret: string })) => void;
}) {
  const [events, setEvents] = useState<string[]>(webhook ? [...webhook.events] : []);
  const [problem, setProblem] = useState<Problem | undefined>();
  const mayHearAll = holds(session.token.permissions, WEBHOOKS_ALL);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const url = String(form.get('url')).trim();
    const description = String(form.get('description') ?? '').trim();
    // The names come from the list the server's own types give; a wrong one is the server's to refuse.
    const chosen = events as EventName[];
    if (webhook === undefined) {
      const body: CreateBody = { url, events: chosen };
      if (description !== '') body.description = description;
      if (form.get('scope') === 'all') body.scope = 'all';
      const created = await session.api.POST('/api/webhook/create', { body });
      if (created.ok) onSaved(created.data);
      else setProblem(created);
      return;
    }
    const body: UpdateBody = {
      url,
      events: chosen,
      description: description === '' ? null : description,
      disabled: form.get('disabled') === 'on',
    };
    const updated = await session.api.PATCH('/api/webhook/update', { params: { query: { id: webhook.id } }, body });
    if (updated.ok) onSaved(updated.data);
    else setProblem(updated);
  };
  return (
    <Dialog title={webhook ? `Edit the webhook to ${webhook.url}` : 'Create a webhook'} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)}>
        <ProblemMessage problem={problem} />
        <label>
          URL (https:, to a public address)
          <input name="url" type="url" required defaultValue={webhook?.url ?? ''} data-autofocus />
        </label>
        <EventPicker selected={events} onChange={setEvents} />
        <label>
          Description (optional)
          <input name="description" maxLength={500} defaultValue={webhook?.description ?? ''} />
        </label>
        {webhook === undefined && mayHearAll && (
          <label>
            Hears
            <select name="scope">
              <option value="own">my events: my tokens, mail and account</option>
              <option value="all">every event of the installation</option>
            </select>
          </label>
        )}
        {webhook && (
          <label>
            <input name="disabled" type="checkbox" defaultChecked={webhook.disabled} /> Disabled: nothing is sent to it
          </label>
        )}
        <FormActions submit={webhook ? 'Save' : 'Create'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['queued', 'delivered', 'failed'];

/** A webhook's deliveries, newest first, a page at a time, each with every attempt; one may be sent again. */
function Deliveries({ session, webhook }: { readonly session: Session; readonly webhook: Webhook }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [done, setDone] = useState('');
  const pages = useCursorPages(
    (cursor) =>
      session.api.GET('/api/webhook/deliveries', {
        params: {
          query: {
            id: webhook.id,
            limit: PAGE_LIMIT,
            ...(status !== '' && { status }),
            ...(cursor !== undefined && { cursor }),
          },
        },
      }),
    [status],
  );
  const redeliver = async (delivery: Delivery) => {
    const answer = await session.api.POST('/api/webhook/redeliver', {
      params: { query: { id: webhook.id, delivery: delivery.id } },
    });
    setProblem(answer.ok ? undefined : answer);
    setDone(answer.ok ? `The ${delivery.event.type} delivery is queued again.` : '');
    pages.reload();
  };
  const { page } = pages;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by a button in the list above: the focus follows, so that the keyboard and screen readers are where it shows.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries" ref={heading} tabIndex={-1}>
        Deliveries to <span class="url">{webhook.url}</span>
      </h2>
      <StatusToolbar
        statuses={DELIVERY_STATUSES}
        status={status}
        onStatus={(chosen) => {
          setStatus(chosen);
          pages.restart();
        }}
        onRefresh={pages.reload}
      />
      <p role="status">{done}</p>
      <ProblemMessage problem={problem} />
      <Answered loading={page}>
        {(data) => (
          <>
            <PagedTable
              caption="Deliveries"
              empty="No deliveries yet: events the webhook hears are listed here as they are sent (a test event is not)."
              rows={data.deliveries}
              pageSize={PAGE_LIMIT}
              rowKey={(delivery) => delivery.id}
              columns={[
                { header: 'Event', cell: (delivery) => <code>{delivery.event.type}</code> },
                { header: 'Created', cell: (delivery) => when(delivery.createdAt) },
                { header: 'Status', cell: (delivery) => delivery.status },
                {
                  header: 'Attempts',
                  cell: (delivery) =>
                    delivery.attempts.length === 0 ? (
                      'none yet'
                    ) : (
                      <ol class="attempts">
                        {delivery.attempts.map((attempt) => (
                          <li key={attempt.at}>
                            {when(attempt.at)}: {attemptOutcome(attempt)}
                          </li>
                        ))}
                      </ol>
                    ),
                },
                { header: 'Next attempt', cell: (delivery) => when(delivery.nextAttemptAt, 'none') },
                {
                  header: 'Actions',
                  cell: (delivery) => (
                    <button
                      type="button"
                      aria-label={`Redeliver the ${delivery.event.type} of ${when(delivery.createdAt)}`}
                      onClick={() => void redeliver(delivery)}
                    >
                      Redeliver
                    </button>
                  ),
                },
              ]}
            />
            <CursorPager label="Pages of deliveries" pages={pages} />
          </>
        )}
      </Answered>
    </section>
  );
}
