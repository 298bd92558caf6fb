import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { cliOn } from './run-cli.js';

const OFF = {
  UTILITY_API_KANYE_URL: 'off',
  UTILITY_API_CHUCKNORRIS_URL: 'off',
  UTILITY_API_RON_SWANSON_URL: 'off',
};

/** Made-up sayings for these tests, numbered so that each is its own text. */
const sayings = (count: number, about: string): string =>
  `text,author\n${Array.from({ length: count }, (_, i) => `"Saying ${i} about ${about}.",Pell Varro`).join('\n')}\n`;

describe('cli: content list, every entry page after page or one page at a time (SQLite)', () => {
  let database: TestDatabase;
  let cli: ReturnType<typeof cliOn>;
  let dir: string;
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  beforeEach(async () => {
    database = await freshSqlite();
    cli = cliOn({ ...database.env, ...OFF });
    dir = mkdtempSync(join(tmpdir(), 'utility-api-content-'));
  });
  afterEach(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists every entry page after page, or one page of a kind with --limit and the cursor of the next', async () => {
    expect(
      (await cli('content', 'import', file('q.csv', sayings(7, 'pages')), '--kind', 'quote', '--category', 'p')).status,
    ).to.equal(0);
    const every = await cli('content', 'list', '--kind', 'quote');
    const lines = every.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).to.equal('7 stored');
    const listed = lines.slice(0, -1);
    expect(listed).to.have.length(7);
    for (const line of listed)
      expect(line).to.match(/^[0-9a-f]{16} {2}quote\/p {2}Pell Varro: Saying \d about pages\.$/);
    // Facts and quotes both, without --kind: the bundled facts too.
    expect((await cli('content', 'list')).lastLine).to.match(/^\d{3} stored$/);

    const paged: string[] = [];
    let args = ['content', 'list', '--kind', 'quote', '--limit', '3'];
    for (let pages = 0; ; pages++) {
      expect(pages).to.be.below(5);
      const page = await cli(...args);
      expect(page.status).to.equal(0);
      const shown = page.stdout.trimEnd().split('\n');
      const next = /^next page: --cursor (\S+)$/.exec(shown.at(-1)!);
      paged.push(...(next ? shown.slice(0, -1) : shown));
      if (!next) break;
      args = ['content', 'list', '--kind', 'quote', '--limit', '3', '--cursor', next[1]!];
    }
    expect(paged).to.deep.equal(listed);

    const first = await cli('content', 'list', '--kind', 'quote', '--limit', '3');
    const cursor = /--cursor (\S+)/.exec(first.stdout)![1]!;
    // The rest from a cursor, without --limit.
    expect((await cli('content', 'list', '--kind', 'quote', '--cursor', cursor)).lastLine).to.equal('4 stored');
  });

  it('refuses a page without a kind, a bad --limit, a cursor of another listing, naming the flag', async () => {
    await cli('content', 'import', file('q.csv', sayings(5, 'refusals')), '--kind', 'quote', '--category', 'r');
    const first = await cli('content', 'list', '--kind', 'quote', '--limit', '2');
    const cursor = /--cursor (\S+)/.exec(first.stdout)![1]!;
    const refusals: [string[], string][] = [
      [['--limit', '2'], 'Missing --kind'],
      [['--kind', 'quote', '--limit', '0'], 'Invalid --limit'],
      [['--kind', 'quote', '--limit', '101'], 'Invalid --limit'],
      [['--kind', 'quote', '--limit', 'ten'], 'Invalid --limit'],
      [['--kind', 'quote', '--category', 'other', '--limit', '2', '--cursor', cursor], 'Invalid --cursor'],
      [['--kind', 'fact', '--limit', '2', '--cursor', cursor], 'Invalid --cursor'],
      [['--kind', 'quote', '--limit', '2', '--cursor', `${cursor}x`], 'Invalid --cursor'],
      [['--kind', 'quote', '--category', 'Not One'], 'Invalid --category'],
    ];
    for (const [args, said] of refusals) {
      const refused = await cli('content', 'list', ...args);
      expect(refused.status, args.join(' ')).to.equal(1);
      expect(refused.stderr, args.join(' ')).to.include(said);
      expect(refused.stdout).to.equal('');
    }
  });
});
