import { Answered } from '../components/answered.js';
import { StatusToolbar } from '../components/status-toolbar.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { paths } from '../../client/index.js';
import { CursorPager, PAGE_LIMIT, useCursorPages } from '../components/cursor-pages.js';
import { PagedTable } from '../components/paged-table.js';
import { useAnswer } from '../components/use-answer.js';
import { when } from '../format.js';
import type { PageProps } from '../pages.js';
import { holds } from '../permissions.js';
import type { Session } from '../session.js';

type Message = paths['/api/mail/list']['get']['responses'][200]['content']['application/json']['messages'][number];
type MailStatus = Message['status'];

/** Reads everyone's messages; Mail::Send alone reads one's own. */
export const MAIL_READ = 'Mail::Read';

const STATUSES: readonly MailStatus[] = ['queued', 'sent', 'failed'];

/** Where a message is: sent when, or when it is tried next. */
function progressOf(message: Message): string {
  if (message.status === 'sent') return `sent ${when(message.sentAt)}`;
  if (message.status === 'queued')
    return message.nextAttemptAt === null ? 'queued' : `queued, next try ${when(message.nextAttemptAt)}`;
  return 'failed';
}

/** The messages sent through the API, newest first, a page at a time: my own, or everyone's with Mail::Read. */
export function MailPage({ session }: PageProps) {
  const everyone = holds(session.token.permissions, MAIL_READ);
  const [status, setStatus] = useState<MailStatus | ''>('');
  const [watched, setWatched] = useState<Message | undefined>();
  const pages = useCursorPages(
    (cursor) =>
      session.api.GET('/api/mail/list', {
        params: {
          query: { limit: PAGE_LIMIT, ...(status !== '' && { status }), ...(cursor !== undefined && { cursor }) },
        },
      }),
    [status],
  );
  const { page } = pages;
  const caption = everyone ? 'Everyone’s messages' : 'My messages';
  return (
    <>
      <p>
        {everyone
          ? 'Every message sent through the API, by anyone, newest first, with what became of it.'
          : 'The messages you sent through the API, newest first, with what became of them.'}{' '}
        A message is queued until the mail server takes it for every recipient; one refused for now is tried again.
      </p>
      <StatusToolbar
        statuses={STATUSES}
        status={status}
        onStatus={(chosen) => {
          setStatus(chosen);
          pages.restart();
        }}
        onRefresh={pages.reload}
      />
      <Answered loading={page}>
        {(data) => (
          <>
            <PagedTable
              caption={caption}
              empty={status === '' ? 'No messages yet.' : `No ${status} messages.`}
              rows={data.messages}
              pageSize={PAGE_LIMIT}
              rowKey={(message) => message.id}
              columns={[
                { header: 'Created', cell: (message) => when(message.createdAt) },
                { header: 'Subject', cell: (message) => message.subject },
                { header: 'To', cell: (message) => message.to.join(', ') },
                { header: 'Status', cell: progressOf },
                { header: 'Attempts', cell: (message) => message.attempts },
                { header: 'Last error', cell: (message) => message.lastError ?? '' },
                {
                  header: 'Actions',
                  cell: (message) => (
                    <button
                      type="button"
                      aria-label={`Recipients of “${message.subject}”`}
                      onClick={() => setWatched(message)}
                    >
                      Recipients
                    </button>
                  ),
                },
              ]}
            />
            <CursorPager label="Pages of messages" pages={pages} />
          </>
        )}
      </Answered>
      {watched && <Recipients key={watched.id} session={session} message={watched} />}
    </>
  );
}

/** One message as it is now (read again, not the list's copy): each recipient's fate. */
function Recipients({ session, message }: { readonly session: Session; readonly message: Message }) {
  const [status, reload] = useAnswer(() =>
    session.api.GET('/api/mail/status', { params: { query: { id: message.id } } }),
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by a button in the list above: the focus follows, so that the keyboard and screen readers are where it shows.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="recipients">
      <h2 id="recipients" ref={heading} tabIndex={-1}>
        Recipients of “{message.subject}”
      </h2>
      <div class="actions">
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <Answered loading={status}>
        {(data) => (
          <>
            <p>
              {progressOf(data)}, after {data.attempts} {data.attempts === 1 ? 'attempt' : 'attempts'}.
            </p>
            <PagedTable
              caption="Recipients"
              rows={data.recipients}
              rowKey={(recipient) => recipient.address}
              columns={[
                { header: 'Address', cell: (recipient) => recipient.address },
                { header: 'Status', cell: (recipient) => recipient.status },
                { header: 'Last error', cell: (recipient) => recipient.lastError ?? '' },
              ]}
            />
          </>
        )}
      </Answered>
    </section>
  );
}
