import { expect } from 'chai';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { startServer } from '../support/http-server.js';
import { cliOn } from './run-cli.js';

interface Page {
  entries: { action: string; actor: { uid: string | null; via: string }; target: { label: string | null } }[];
  nextCursor: string | null;
}

describe('cli: the audit trail, written by the CLI’s changes and read as GET /api/audit answers it', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshSqlite();
  });
  afterEach(() => database.drop());

  it('writes the operator’s changes with via cli, and lists them with the same filters as the API', async () => {
    const cli = cliOn(database.env);
    expect((await cli('user', 'create', '--username', 'uma', '--permission', 'Audit::Read')).status).to.equal(0);
    expect((await cli('user', 'update', '--username', 'uma', '--display-name', 'Uma')).status).to.equal(0);
    const created = await cli('token', 'create', '--username', 'uma');
    expect(created.status).to.equal(0);

    const listed = await cli('audit', 'list', '--limit', '2');
    expect(listed.status, listed.stderr).to.equal(0);
    const page = JSON.parse(listed.stdout) as Page;
    expect(page.entries.map(({ action, actor, target }) => [action, actor, target.label])).to.deep.equal([
      ['token.create', { uid: null, username: null, tokenId: null, via: 'cli' }, page.entries[0]!.target.label],
      ['user.update', { uid: null, username: null, tokenId: null, via: 'cli' }, 'uma'],
    ]);
    const rest = JSON.parse((await cli('audit', 'list', '--cursor', page.nextCursor!)).stdout) as Page;
    expect(rest).to.deep.include({ nextCursor: null });
    expect(rest.entries.map((entry) => entry.action)).to.deep.equal(['user.create']);
    const creates = JSON.parse((await cli('audit', 'list', '--action', 'user.create')).stdout) as Page;
    expect(creates.entries.map((entry) => entry.target.label)).to.deep.equal(['uma']);

    // What the CLI wrote, the API reads, and the other way round.
    const server = await startServer({ env: database.env });
    try {
      const response = await server.get('/api/audit?actor=', { authorization: `Bearer ${created.lastLine}` });
      expect(response.status).to.equal(400);
      const answered = (await (
        await server.get('/api/audit?action=user.update', { authorization: `Bearer ${created.lastLine}` })
      ).json()) as Page;
      expect(answered.entries.map((entry) => entry.actor.via)).to.deep.equal(['cli']);
    } finally {
      await server.close();
    }
  });

  it('refuses a malformed filter in one line', async () => {
    const cli = cliOn(database.env);
    const badFrom = await cli('audit', 'list', '--from', 'yesterday');
    expect(badFrom.status).to.equal(1);
    expect(badFrom.stderr).to.match(/^utility-api: --from must be an ISO 8601 date .*"yesterday"\n$/);
    const badLimit = await cli('audit', 'list', '--limit', '0');
    expect(badLimit.status).to.equal(1);
    expect(badLimit.stderr).to.equal('utility-api: --limit must be a whole number from 1 to 100, got "0"\n');
    const badAction = await cli('audit', 'list', '--action', 'user.renamed');
    expect(badAction.status).to.equal(1);
    expect(badAction.stderr).to.include("'user.renamed' is invalid");
    const badRange = await cli('audit', 'list', '--from', '2026-11-27', '--to', '2026-11-26');
    expect(badRange.status).to.equal(1);
    expect(badRange.stderr).to.match(/^utility-api: Invalid --from: from must be before to\n$/);
  });
});
