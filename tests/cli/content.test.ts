import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { startServer } from '../support/http-server.js';
import { cliOn } from './run-cli.js';

const LONG = 'x'.repeat(1001);

describe('cli: content import, list, export and delete, in process (SQLite)', () => {
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
    cli = cliOn({ ...database.env, UTILITY_API_KANYE_URL: 'off', UTILITY_API_CHUCKNORRIS_URL: 'off', UTILITY_API_RON_SWANSON_URL: 'off' });
    dir = mkdtempSync(join(tmpdir(), 'utility-api-content-'));
  });
  afterEach(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports CSV, reporting each refused and skipped line by number; a second import adds nothing', async () => {
    const csv = file(
      'stoics.csv',
      [
        'text,author,source',
        '"We suffer more in imagination than in reality.",Seneca,Letters',
        ',Nobody,',
        `${LONG},Long,`,
        'too,many,columns,here',
        '"The best revenge is not to be like your enemy.",Marcus Aurelius,',
        '"we suffer more in imagination  than in reality.",Seneca,',
        'Bell\u0007here,,',
      ].join('\n'),
    );
    const first = await cli('content', 'import', csv, '--kind', 'quote', '--category', 'stoics');
    expect(first.status).to.equal(1);
    expect(first.stdout.split('\n')).to.include.members([
      'line 3: refused: Missing: text',
      'line 4: refused: text must be at most 1000 characters',
      'line 8: refused: text must not contain control characters or invisible formatting characters (zero-width, bidirectional)',
      'Imported into quote/stoics: 2 added, 1 skipped, 4 refused',
    ]);
    expect(first.stdout).to.match(/^line 5: refused: Invalid Record Length/m);
    expect(first.stdout).to.match(/^line 7: skipped: already stored \([0-9a-f]{16}\)$/m);
    expect(first.stderr).to.include('4 line(s) refused');

    const second = await cli('content', 'import', csv, '--kind', 'quote', '--category', 'stoics');
    expect(second.stdout).to.include('Imported into quote/stoics: 0 added, 3 skipped, 4 refused');

    // What the server then answers: a random quote among those imported.
    const server = await startServer({ env: { ...database.env, UTILITY_API_KANYE_URL: 'off' } });
    try {
      const token = await server.tokenFor(['Quotes::Random']);
      const body = (await (await server.get('/api/quotes/random', { Authorization: `Bearer ${token}` })).json()) as Record<string, unknown>;
      expect(body).to.include({ category: 'stoics' });
      expect(['Seneca', 'Marcus Aurelius']).to.include(body.author);
    } finally {
      await server.close();
    }
  });

  it('imports a JSON array and NDJSON, exports NDJSON that imports back, lists and deletes', async () => {
    const json = file('facts.json', JSON.stringify(['Octopuses have three hearts.', { text: 'Honey keeps for a very long time.', source: 'kitchen lore' }, { text: 'x', colour: 'red' }, 42]));
    const imported = await cli('content', 'import', json, '--kind', 'fact', '--category', 'trivia');
    expect(imported.stdout).to.include('item 3: refused: unknown field(s): colour').and.to.include('item 4: refused: expected a string or an object').and.to.include('2 added, 0 skipped, 2 refused');

    const ndjson = file('more.ndjson', '{"text":"Bananas are berries."}\n\nnot json\n"Octopuses have three hearts."\n');
    const more = await cli('content', 'import', ndjson, '--kind', 'fact', '--category', 'trivia');
    expect(more.stdout).to.include('line 3: refused: not a JSON value').and.to.include('line 4: skipped').and.to.include('1 added, 1 skipped, 1 refused');

    const exported = await cli('content', 'export', '--kind', 'fact', '--category', 'trivia');
    expect(exported.status).to.equal(0);
    const lines = exported.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines).to.have.length(3);
    expect(lines).to.deep.include({ text: 'Honey keeps for a very long time.', source: 'kitchen lore' });
    const reimported = await cli('content', 'import', file('back.ndjson', exported.stdout), '--kind', 'fact', '--category', 'trivia');
    expect(reimported).to.include({ status: 0 });
    expect(reimported.stdout).to.include('0 added, 3 skipped, 0 refused');

    const listed = await cli('content', 'list', '--kind', 'fact', '--category', 'trivia');
    expect(listed.stdout).to.include('3 stored');
    const id = /^([0-9a-f]{16}) {2}fact\/trivia {2}Bananas/m.exec(listed.stdout)![1]!;
    expect(await cli('content', 'delete', '--id', id)).to.include({ status: 0, stdout: `Deleted ${id}\n` });
    const gone = await cli('content', 'delete', '--id', id);
    expect(gone.status).to.equal(1);
    expect(gone.stderr).to.include(`Unable to retrieve requested information: No fact or quote ${id}`);
    expect((await cli('content', 'list', '--kind', 'fact', '--category', 'trivia')).stdout).to.match(/\n2 stored\n$/);
  });

  it('refuses what it cannot import, naming the flag or the file', async () => {
    const csv = file('q.csv', 'text\nfine\n');
    expect((await cli('content', 'import', csv, '--kind', 'quote', '--category', 'Bad Name')).stderr).to.include('Invalid --category');
    expect((await cli('content', 'import', file('q.txt', 'x'), '--kind', 'quote', '--category', 'q')).stderr).to.include('give --format json|ndjson|csv');
    expect((await cli('content', 'import', file('bad.json', '{"text":"x"}'), '--kind', 'quote', '--category', 'q')).stderr).to.include('Invalid FILE: a JSON file must hold an array');
    expect((await cli('content', 'import', file('cols.csv', 'quote,who\nx,y\n'), '--kind', 'quote', '--category', 'q')).stderr).to.include('the first line must name the columns');
    expect((await cli('content', 'import', join(dir, 'missing.csv'), '--kind', 'quote', '--category', 'q')).stderr).to.include('cannot read');
    expect((await cli('content', 'import', csv, '--kind', 'joke', '--category', 'q')).status).to.not.equal(0);
    expect((await cli('content', 'delete', '--id', 'nope')).stderr).to.include('Invalid --id');
  });
});
