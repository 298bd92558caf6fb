import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentUpstreamsAt, startContentFixture, type ContentFixture } from './support/content-fixture.js';
import { startDnsFixture, type DnsFixture } from './support/dns-fixture.js';
import { ZONE } from './support/dns-zone.js';
import { startHiveFixture, type HiveFixture } from './support/hive-fixture.js';
import { openMeteoAt, startOpenMeteoFixture, type OpenMeteoFixture } from './support/open-meteo-fixture.js';
import { numberBootstrapsAt, startRegistries, type Registries } from './support/registry-fixtures.js';
import { docsPages, mappedPages, readingOrder, readPage } from './support/docs-pages.js';
import { cleanEnv, CLI, MAIN, startProgram, type Running } from './support/program.js';

/**
 * Issue 11 §4: the README's shell examples run as written. The ```sh blocks of README.md and then
 * of every page of docs/, in the order the README's map (its section `## Documentation`) lists
 * the pages, are one story, run in order by one bash against the built program (`npm test`
 * builds dist/ before mocha), with a fresh data directory shared by the server and the CLI, and
 * The Hive, DNS and the registries served by loopback fixtures. Only two things differ from a reader's terminal, both said here:
 * - `localhost:3000` becomes the test server's ephemeral port;
 * - `npx utility-api` runs bin/utility-api.js, the file npx resolves it to, without npm's
 *   start-up of a second or more per command.
 *
 * The convention the README states: a request whose line ends in a comment announcing an answer
 * (`# 403, code 1`) must get exactly that status and catalogue code; every other request must
 * succeed (2xx), and every command must exit 0. A failure names the page and line
 * (`docs/families/mail.md line 40: …`). A page of docs/ the map leaves out fails the test, so that
 * none is skipped.
 */
const PAGES = readingOrder();

/** Blocks the story does not run, each with why; a listed block found on no page fails the test. */
const NOT_RUN: readonly { readonly firstLine: string; readonly why: string }[] = [
  {
    firstLine: 'npm install && npm start   # serves http://localhost:3000/ (its API below /api) on SQLite under ./data',
    why: 'installs and starts the server: what CI itself runs',
  },
  {
    firstLine: 'DATABASE_URL=postgres://user:password@host:5432/dbname npm start',
    why: "needs the reader's own PostgreSQL server",
  },
  {
    firstLine: 'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test',
    why: 'runs the whole suite, which is running this',
  },
];

/** `# 403, code 1` (anywhere in the line's closing comment): the answer the text announces. */
const ANNOUNCED = /#.*?\b([1-5]\d\d), code (\d+)\b/;

interface Block {
  /** The page the block is on, such as `README.md` or `docs/families/mail.md`. */
  readonly file: string;
  /** Line number in that page of the block's first line. */
  readonly line: number;
  readonly lines: readonly string[];
}

function shellBlocks(file: string): Block[] {
  const blocks: Block[] = [];
  const lines = readPage(file).split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index] !== '```sh') continue;
    const end = lines.indexOf('```', index + 1);
    blocks.push({ file, line: index + 2, lines: lines.slice(index + 1, end) });
    index = end;
  }
  return blocks;
}

/**
 * What bash runs before the story: strict mode, `npx utility-api`, and a `curl` that checks the
 * answer against what its line announces (README_EXPECT, set before each line, which README_AT
 * names as `<page> line <n>`).
 */
const PRELUDE = String.raw`
set -Eeuo pipefail
README_AT='before the story'
README_EXPECT=''
trap 'echo "$README_AT: exited $?" >&2' ERR
npx() {
  if [ "$1" != utility-api ]; then echo "$README_AT: npx $1 is not part of the story" >&2; return 1; fi
  shift
  node "$README_CLI" "$@"
}
curl() {
  local head body status code
  head=$(mktemp)
  body=$(mktemp)
  command curl -D "$head" "$@" > "$body" || { echo "$README_AT: curl failed" >&2; return 1; }
  cat "$body"
  status=$(awk 'toupper($1) ~ /^HTTP\// { s = $2 } END { print s }' "$head")
  if [ -z "$README_EXPECT" ]; then
    case "$status" in
      2??) return 0 ;;
      *) echo "$README_AT: answered $status, which the text does not announce: $(head -c 300 "$body")" >&2; return 1 ;;
    esac
  fi
  code=$(jq -r '.code // empty' < "$body" 2>/dev/null || true)
  if [ "$status $code" != "$README_EXPECT" ]; then
    echo "$README_AT: announced $README_EXPECT (status, code), answered $status $code: $(head -c 300 "$body")" >&2
    return 1
  fi
}
`;

/** The story as one bash script: each line preceded by its page and number and the answer it announces. */
function storyScript(blocks: readonly Block[], port: number): string {
  const lines = blocks.flatMap((block) =>
    block.lines.flatMap((line, offset) => {
      const announced = /\bcurl\b/.test(line) ? ANNOUNCED.exec(line) : null;
      const expect = announced ? `${announced[1]} ${announced[2]}` : '';
      return [
        `README_AT='${block.file} line ${block.line + offset}'; README_EXPECT='${expect}'`,
        line.replaceAll('localhost:3000', `127.0.0.1:${port}`),
      ];
    }),
  );
  return `${PRELUDE}\n${lines.join('\n')}\n`;
}

/** Runs a script with bash without blocking this process, which serves The Hive's fixture meanwhile. */
function bash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
}

describe('README and docs/: their shell examples run as written, in order, as one story', function () {
  this.timeout(300_000);
  const blocks = PAGES.flatMap(shellBlocks);
  const story = blocks.filter((block) => !NOT_RUN.some(({ firstLine }) => block.lines[0] === firstLine));
  let dataDir: string;
  let workDir: string;
  let hive: HiveFixture;
  let dns: DnsFixture;
  let registries: Registries;
  /** Where the program finds its outside services: the fixtures. */
  let upstreams: Record<string, string>;
  let content: ContentFixture;
  let openMeteo: OpenMeteoFixture;
  let server: Running;

  before(async function () {
    expect(existsSync(MAIN), 'dist/main.js: run `npm run build` first (npm test does)').to.equal(true);
    dataDir = mkdtempSync(join(tmpdir(), 'utility-api-readme-data-'));
    workDir = mkdtempSync(join(tmpdir(), 'utility-api-readme-cwd-'));
    hive = await startHiveFixture();
    content = await startContentFixture();
    openMeteo = await startOpenMeteoFixture();
    dns = await startDnsFixture(ZONE);
    registries = await startRegistries();
    upstreams = {
      UTILITY_API_HIVE_URL: hive.url,
      UTILITY_API_DNS_SERVERS: dns.server,
      UTILITY_API_RDAP_BOOTSTRAP_URL: registries.rdap.bootstrapUrl,
      ...numberBootstrapsAt(registries.rdap),
      UTILITY_API_WHOIS_SERVER: registries.root.server,
      UTILITY_API_OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
      ...contentUpstreamsAt(content),
      ...openMeteoAt(openMeteo),
    };
    server = await startProgram({ env: { UTILITY_API_DATA_DIR: dataDir, ...upstreams } });
  });

  after(async () => {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((done) => server.child.once('exit', done));
      server.child.kill('SIGTERM');
      await exited;
    }
    await Promise.all([hive?.close(), dns?.close(), registries?.close(), content?.close(), openMeteo?.close()]);
    for (const dir of [dataDir, workDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("reads every page of docs/, in the order of the README's map", () => {
    const mapped = mappedPages();
    expect(mapped.length, 'pages the README maps').to.be.greaterThan(5);
    for (const page of docsPages())
      expect(mapped, `${page} is not in the README's map (${PAGES.join(', ')})`).to.include(page);
    for (const page of mapped) expect(docsPages(), `the README maps ${page}, which does not exist`).to.include(page);
  });

  it('leaves out only the blocks it says why, and each of them is still on a page', () => {
    for (const { firstLine } of NOT_RUN)
      expect(
        blocks.map((block) => block.lines[0]),
        firstLine,
      ).to.include(firstLine);
    expect(story.length, 'blocks the story runs').to.be.greaterThan(5);
  });

  it('runs every other block with bash: each command exits 0, each answer is a success or the error its line announces', async () => {
    const result = await bash(
      storyScript(story, server.port),
      workDir,
      cleanEnv({ UTILITY_API_DATA_DIR: dataDir, ...upstreams, README_CLI: CLI }),
    );
    expect(
      result.status,
      `bash exited ${result.status}:\n${result.stderr}\n--- last of stdout ---\n${result.stdout.slice(-1500)}`,
    ).to.equal(0);
  });

  it('checks what it announces: a wrong announcement or an unannounced error fails the story', async () => {
    const run = (line: string) =>
      bash(
        storyScript([{ file: 'docs/example.md', line: 40, lines: [line] }], server.port),
        workDir,
        cleanEnv({ UTILITY_API_DATA_DIR: dataDir, README_CLI: CLI }),
      );
    expect(
      (await run("curl -s 'localhost:3000/api/crypto/enc?data=x'   # 401, code 3")).status,
      'announced rightly',
    ).to.equal(0);
    expect((await run("curl -s 'localhost:3000/api/crypto/enc?data=x'   # 401, code 4")).stderr).to.include(
      'docs/example.md line 40: announced 401 4 (status, code), answered 401 3',
    );
    expect((await run("curl -s 'localhost:3000/api/crypto/enc?data=x'")).stderr).to.include(
      'answered 401, which the text does not announce',
    );
    const failing = await run('npx utility-api user get --username nobody');
    expect(failing.status, 'a failing command').to.not.equal(0);
    expect(failing.stderr, 'a failing command').to.include('docs/example.md line 40: exited 1');
  });
});
