import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TEST_ENCRYPTION_KEY } from '../cli/run-cli.js';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { cleanEnv, CLI, ROOT } from '../support/program.js';

const run = promisify(execFile);
const OFF = {
  UTILITY_API_KANYE_URL: 'off',
  UTILITY_API_CHUCKNORRIS_URL: 'off',
  UTILITY_API_RON_SWANSON_URL: 'off',
};
const ERASE_LINE = '\r\u001b[2K';
/** util-linux's `script`, which gives a command a pseudo-terminal. */
const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** Made-up sayings for these tests, numbered so that each is its own text. */
const sayings = (count: number, about: string): string =>
  `text,author\n${Array.from({ length: count }, (_, i) => `"Saying ${i} about ${about}.",Pell Varro`).join('\n')}\n`;

describe('e2e: the built CLI imports content with progress on a terminal, a one-line summary off it (SQLite)', () => {
  let database: TestDatabase;
  let dir: string;
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  beforeEach(async () => {
    database = await freshSqlite();
    dir = mkdtempSync(join(tmpdir(), 'utility-api-content-'));
  });
  afterEach(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The built CLI as a user's shell starts it, its output to pipes (as in a script or a CI log). */
  const piped = (args: readonly string[]) =>
    run(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: cleanEnv({ ...database.env, ...OFF, UTILITY_API_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }),
    });
  /** The built CLI on a pseudo-terminal (util-linux `script`), as a user at a terminal sees it: both streams, as one. */
  const onTerminal = async (args: readonly string[]): Promise<string> => {
    const quoted = [process.execPath, CLI, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
    const { stdout } = await run('script', ['-qec', quoted, '/dev/null'], {
      cwd: ROOT,
      env: cleanEnv({ ...database.env, ...OFF, UTILITY_API_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }),
    });
    return stdout;
  };

  it('prints a one-line summary when its output is not a terminal, a first import and a re-import alike', async () => {
    const csv = file('many.csv', sayings(1200, 'pipes'));
    const args = ['content', 'import', csv, '--kind', 'quote', '--category', 'sayings'];
    const first = await piped(args);
    expect(first).to.deep.equal({
      stdout: 'Imported into quote/sayings: 1200 added, 0 skipped, 0 refused\n',
      stderr: '',
    });
    // Every line already stored: counted, never listed one by one.
    expect(await piped(args)).to.deep.equal({
      stdout: 'Imported into quote/sayings: 0 added, 1200 skipped, 0 refused\n',
      stderr: '',
    });
  });

  (HAS_SCRIPT ? it : it.skip)(
    'shows its progress on a terminal, checking then storing, erases it and ends with the summary',
    async () => {
      const csv = file('many.csv', sayings(2500, 'terminals'));
      const seen = await onTerminal(['content', 'import', csv, '--kind', 'quote', '--category', 'sayings']);
      expect(seen).to.include(`${ERASE_LINE}checking lines: 0 of 2,500 (0%)`);
      expect(seen).to.include(`${ERASE_LINE}checking lines: 2,500 of 2,500 (100%)`);
      expect(seen).to.include(`${ERASE_LINE}storing: 2,500 of 2,500 (100%)`);
      // The progress line is erased before the summary, which stands alone on its line.
      expect(
        seen
          .replace(/\r?\n$/, '')
          .endsWith(`${ERASE_LINE}Imported into quote/sayings: 2500 added, 0 skipped, 0 refused`),
      ).to.equal(true);

      const again = await onTerminal(['content', 'import', csv, '--kind', 'quote', '--category', 'sayings']);
      expect(again).to.include('0 added, 2500 skipped, 0 refused');
      expect(again).to.not.include('skipped:');
    },
  );
});
