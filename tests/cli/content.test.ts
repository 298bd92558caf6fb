import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { freshSqlite, sqlDatabases, type TestDatabase } from '../support/databases.js';
import { startServer } from '../support/http-server.js';
import { SeededRandomness } from '../support/seeded-randomness.js';
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
    cli = cliOn({
      ...database.env,
      UTILITY_API_KANYE_URL: 'off',
      UTILITY_API_CHUCKNORRIS_URL: 'off',
      UTILITY_API_RON_SWANSON_URL: 'off',
    });
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
        'Delete\u007fhere,,',
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
    // A line already given is counted, not listed.
    expect(first.stdout).to.not.include('skipped:');
    expect(first.stderr).to.include('4 line(s) refused');

    const second = await cli('content', 'import', csv, '--kind', 'quote', '--category', 'stoics');
    expect(second.stdout).to.include('Imported into quote/stoics: 0 added, 3 skipped, 4 refused');
    expect(second.stdout.split('\n').filter((line) => line.includes('skipped'))).to.have.length(1);

    // What the server then answers: a random quote among those imported.
    const server = await startServer({ env: { ...database.env, UTILITY_API_KANYE_URL: 'off' } });
    try {
      const token = await server.tokenFor(['Quotes::Random']);
      const body = (await (
        await server.get('/api/quotes/random', { Authorization: `Bearer ${token}` })
      ).json()) as Record<string, unknown>;
      expect(body).to.include({ category: 'stoics' });
      expect(['Seneca', 'Marcus Aurelius']).to.include(body.author);
    } finally {
      await server.close();
    }
  });

  it('imports a JSON array and NDJSON, exports NDJSON that imports back, lists and deletes', async () => {
    const json = file(
      'facts.json',
      JSON.stringify([
        'Octopuses have three hearts.',
        { text: 'Honey keeps for a very long time.', source: 'kitchen lore' },
        { text: 'x', colour: 'red' },
        42,
      ]),
    );
    const imported = await cli('content', 'import', json, '--kind', 'fact', '--category', 'trivia');
    expect(imported.stdout)
      .to.include('item 3: refused: unknown field(s): colour')
      .and.to.include('item 4: refused: expected a string or an object')
      .and.to.include('2 added, 0 skipped, 2 refused');

    const ndjson = file('more.ndjson', '{"text":"Bananas are berries."}\n\nnot json\n"Octopuses have three hearts."\n');
    const more = await cli('content', 'import', ndjson, '--kind', 'fact', '--category', 'trivia');
    expect(more.stdout).to.include('line 3: refused: not a JSON value').and.to.include('1 added, 1 skipped, 1 refused');

    const exported = await cli('content', 'export', '--kind', 'fact', '--category', 'trivia');
    expect(exported.status).to.equal(0);
    const lines = exported.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines).to.have.length(3);
    expect(lines).to.deep.include({ text: 'Honey keeps for a very long time.', source: 'kitchen lore' });
    const reimported = await cli(
      'content',
      'import',
      file('back.ndjson', exported.stdout),
      '--kind',
      'fact',
      '--category',
      'trivia',
    );
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
    expect((await cli('content', 'import', csv, '--kind', 'quote', '--category', 'Bad Name')).stderr).to.include(
      'Invalid --category',
    );
    expect(
      (await cli('content', 'import', file('q.txt', 'x'), '--kind', 'quote', '--category', 'q')).stderr,
    ).to.include('give --format json|ndjson|csv');
    expect(
      (await cli('content', 'import', file('bad.json', '{"text":"x"}'), '--kind', 'quote', '--category', 'q')).stderr,
    ).to.include('Invalid FILE: a JSON file must hold an array');
    expect(
      (await cli('content', 'import', file('cols.csv', 'quote,who\nx,y\n'), '--kind', 'quote', '--category', 'q'))
        .stderr,
    ).to.include('the first line must name the columns');
    expect(
      (await cli('content', 'import', join(dir, 'missing.csv'), '--kind', 'quote', '--category', 'q')).stderr,
    ).to.include('cannot read');
    expect((await cli('content', 'import', csv, '--kind', 'joke', '--category', 'q')).status).to.not.equal(0);
    expect((await cli('content', 'delete', '--id', 'nope')).stderr).to.include('Invalid --id');
  });
});

/** XML 1.0's `Char` production (§2.2): what a well-formed document may hold at all, which XMLValidator does not check. */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

for (const backend of sqlDatabases) {
  describe(`cli: content import takes only text XML can carry, and what it stores is served as well-formed XML (${backend.name})`, () => {
    let database: TestDatabase;
    let cli: ReturnType<typeof cliOn>;
    let dir: string;
    const file = (name: string, content: string | Buffer): string => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };
    const OFF = {
      UTILITY_API_KANYE_URL: 'off',
      UTILITY_API_CHUCKNORRIS_URL: 'off',
      UTILITY_API_RON_SWANSON_URL: 'off',
    };
    before(async () => {
      database = await backend.open();
      cli = cliOn({ ...database.env, ...OFF });
      dir = mkdtempSync(join(tmpdir(), 'utility-api-content-'));
    });
    after(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a whole file with bytes that are not UTF-8, or a character XML cannot carry written or escaped, naming line and column; stores nothing', async () => {
      const good = '"Cats sleep a lot."\n';
      const cases: [string, string | Buffer, string][] = [
        [
          'latin1.csv',
          Buffer.concat([Buffer.from('text\nfine\nna'), Buffer.of(0xef, 0x76, 0x65), Buffer.from('\n')]),
          'line 3, column 3: bytes that are not UTF-8',
        ],
        [
          'overlong.ndjson',
          Buffer.concat([Buffer.from(`${good}"a`), Buffer.of(0xc0, 0xaf), Buffer.from('"\n')]),
          'line 2, column 3: bytes that are not UTF-8',
        ],
        [
          'surrogate.json',
          Buffer.concat([Buffer.from('["fine", "😀'), Buffer.of(0xed, 0xa0, 0x80), Buffer.from('"]')]),
          'line 1, column 12: bytes that are not UTF-8',
        ],
        [
          'bell.csv',
          'text\nfine\nring\u0007ring\n',
          'line 3, column 5: U+0007, one of the characters XML cannot carry',
        ],
        [
          'nonchar.ndjson',
          `${good}${good}"end\uFFFF"\n`,
          'line 3, column 5: U+FFFF, one of the characters XML cannot carry',
        ],
        [
          'escaped-nul.json',
          '[\n  "fine",\n  {"text": "a\\u0000b"}\n]',
          'line 3, column 14: \\u0000, an escape of one of the characters XML cannot carry',
        ],
        [
          'escaped-fffe.ndjson',
          `${good}{"text":"x","author":"\\ufffe"}\n`,
          'line 2, column 23: \\ufffe, an escape of one of the characters XML cannot carry',
        ],
        [
          'lone-high.json',
          '["\\ud83d\\ude00 fine", "\\ud83d alone"]',
          'line 1, column 24: \\ud83d, an escape of one of the characters XML cannot carry',
        ],
        [
          'lone-low.ndjson',
          '"\\udc00"\n',
          'line 1, column 2: \\udc00, an escape of one of the characters XML cannot carry',
        ],
      ];
      for (const [name, content, where] of cases) {
        const refused = await cli('content', 'import', file(name, content), '--kind', 'quote', '--category', 'refused');
        expect(refused.status, name).to.equal(1);
        expect(refused.stderr, name).to.include(`Invalid FILE: ${where}`).and.to.include('nothing was imported');
      }
      expect((await cli('content', 'list', '--kind', 'quote')).stdout).to.equal('0 stored\n');
    });

    it('takes what XML can carry (escapes of the rest, an escaped backslash, a pair of surrogates, a byte order mark) and serves it as well-formed XML', async () => {
      const texts = [
        'Less < more & "quotes" ]]> \'apostrophes\'',
        'A pair 😀 and U+10FFFF \u{10FFFF}',
        'Replacement \uFFFD and \uFFFC kept',
        'Tab-free, line-free: café ☕ 中文',
      ];
      const lines = [
        '\uFEFF{"text":"a literal \\\\u0000 is text","author":"Back\\\\slash"}',
        ...texts.map((text) => JSON.stringify({ text, source: 'A & B <co>' })),
      ];
      const imported = await cli(
        'content',
        'import',
        file('tricky.ndjson', `${lines.join('\n')}\n`),
        '--kind',
        'quote',
        '--category',
        'tricky',
      );
      expect(imported.stdout).to.include('5 added, 0 skipped, 0 refused');
      const server = await startServer({ env: { ...database.env, ...OFF }, randomness: new SeededRandomness('xml') });
      try {
        const token = await server.tokenFor(['Quotes::Random']);
        const served = new Set<string>();
        for (let draw = 0; draw < 40; draw++) {
          const response = await server.get('/api/quotes/random?type=xml', { Authorization: `Bearer ${token}` });
          expect(response.status).to.equal(200);
          const xml = await response.text();
          expect(XMLValidator.validate(xml), xml).to.equal(true);
          expect(XML_CHARS.test(xml), xml).to.equal(true);
          served.add(
            String((new XMLParser({ parseTagValue: false }).parse(xml) as { quote: { quote: string } }).quote.quote),
          );
        }
        expect([...served].sort()).to.deep.equal(['a literal \\u0000 is text', ...texts].sort());
      } finally {
        await server.close();
      }
    });
  });
}
