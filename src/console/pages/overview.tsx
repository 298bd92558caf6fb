import { Answered } from '../components/answered.js';
import { PagedTable } from '../components/paged-table.js';
import { UsageChart } from '../components/usage-chart.js';
import { useAnswer } from '../components/use-answer.js';
import { daysAgo, when } from '../format.js';
import type { PageProps } from '../pages.js';

/** Who I am, what I may do, my tokens' last use, my last 7 days of requests and what is left of my quota. */
export function OverviewPage({ session }: PageProps) {
  const { api, user, token } = session;
  const [tokens] = useAnswer(() => api.GET('/api/token/list'));
  const [usage] = useAnswer(() =>
    api.GET('/api/user/usage', { params: { query: { from: daysAgo(7), by: 'hour', group: 'status' } } }),
  );
  const standing = usage.state === 'done' ? usage.answer.quota : undefined;
  return (
    <>
      <section aria-labelledby="me">
        <h2 id="me">Who I am</h2>
        <dl class="facts">
          <dt>Username</dt>
          <dd>{user.username}</dd>
          <dt>Name</dt>
          <dd>{user.fullName ?? 'none given'}</dd>
          <dt>Email</dt>
          <dd>{user.email ?? 'none given'}</dd>
          <dt>Signed in with</dt>
          <dd>
            {token.name ? `the token “${token.name}”` : 'an unnamed token'} ({token.prefix}…), expires{' '}
            {when(token.expiresAt)}
          </dd>
        </dl>
      </section>
      <section aria-labelledby="permissions">
        <h2 id="permissions">My permissions</h2>
        <p>What this sign-in may do (the token's permissions; your account holds {user.permissions.length}).</p>
        <ul>
          {token.permissions.map((permission) => (
            <li key={permission}>
              <code>{permission}</code>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="quota">
        <h2 id="quota">My quota</h2>
        {user.quota === null && standing === undefined ? (
          <p>No quota: your requests are limited by the rate limit alone.</p>
        ) : (
          <p>
            {user.quota &&
              `${user.quota.requests} requests a ${user.quota.per === 'day' ? 'UTC day' : 'calendar month'}. `}
            {standing &&
              `${standing.remaining} of ${standing.limit} remain; the count starts again in ${Math.ceil(standing.resetSeconds / 60)} min.`}
          </p>
        )}
      </section>
      <section aria-labelledby="usage">
        <h2 id="usage">My usage, last 7 days</h2>
        <Answered loading={usage}>{(data) => <UsageChart usage={data} title="My requests by status class" />}</Answered>
      </section>
      <section aria-labelledby="my-tokens">
        <h2 id="my-tokens">My tokens</h2>
        <Answered loading={tokens}>
          {(data) => (
            <PagedTable
              caption="My tokens by last use"
              rows={[...data].sort((a, b) => (b.lastUsedAt ?? '').localeCompare(a.lastUsedAt ?? ''))}
              rowKey={(row) => row.id}
              pageSize={5}
              columns={[
                { header: 'Name', cell: (row) => row.name ?? '(unnamed)' },
                { header: 'Prefix', cell: (row) => <code>{row.prefix}</code> },
                { header: 'Last used', cell: (row) => when(row.lastUsedAt) },
                { header: 'Uses', cell: (row) => row.uses },
              ]}
            />
          )}
        </Answered>
        <p>
          <a href="#/tokens">Manage my tokens</a>
        </p>
      </section>
    </>
  );
}
