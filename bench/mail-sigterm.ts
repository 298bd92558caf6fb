/**
 * How many messages a graceful stop sends twice when the SMTP server is slow: N messages queued on
 * one instance, SIGTERM while it sends them to a server that takes `BENCH_SMTP_DELAY_MS` (7 s) a
 * message, then a second instance drains the rest from the same SQLite file; the doubled messages
 * are those the server received more than once (same Message-ID).
 *
 *   npx tsx bench/mail-sigterm.ts [root of the build to measure, default this one] [N …, default 40 200 600]
 *
 * `BENCH_SIGNAL_AFTER_MS` (default 0, 1500, 4000): how long after the server has the first messages
 * the signal comes, one run per value. A figure for the report, not a test: it takes a minute or so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startProgram, startScriptLaunch } from '../tests/support/program.js';
import { startSmtpFixture } from '../tests/support/smtp-fixture.js';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const counts = process.argv.slice(3).map(Number);
const smtpDelayMs = Number(process.env.BENCH_SMTP_DELAY_MS ?? 7_000);
const signalAfter = (process.env.BENCH_SIGNAL_AFTER_MS ?? '0,1500,4000').split(',').map(Number);
const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function cli(env: Record<string, string>, args: string[]): string {
  const run = spawnSync(process.execPath, [join(root, 'bin/utility-api.js'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trimEnd().split('\n').at(-1)!;
}

/** The server is started as `npm start` starts it. */
const launch = startScriptLaunch();

async function measure(
  count: number,
  afterMs: number,
): Promise<{ doubled: number; exitCode: number | null; sentByFirst: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mail-sigterm-'));
  const smtp = await startSmtpFixture();
  smtp.delayMs = smtpDelayMs;
  // No quota in the way of the queue this measures.
  const env = {
    UTILITY_API_DATA_DIR: dataDir,
    UTILITY_API_ENCRYPTION_KEY: KEY,
    UTILITY_API_SMTP_URL: smtp.url,
    UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR: 'off',
    UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY: 'off',
  };
  try {
    cli(env, ['user', 'create', '--username', 'sender', '--permission', 'Mail::*']);
    const token = cli(env, ['token', 'create', '--username', 'sender']);
    const first = await startProgram({
      args: [...launch.nodeOptions, join(root, 'dist/main.js')],
      env: { ...launch.env, ...env },
    });
    let next = 0;
    const sendOne = async (): Promise<void> => {
      while (next < count) {
        const i = next++;
        const response = await fetch(`${first.baseUrl}/api/mail/send`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ to: 'ada@example.com', subject: `Message ${i}`, content: 'Hello' }),
        });
        if (response.status !== 202) throw new Error(`message ${i}: ${response.status} ${await response.text()}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, sendOne));
    while (smtp.attempts < 1) await sleep(5);
    await sleep(afterMs);
    const exitCode = await first.stop();
    const sentByFirst = smtp.received.length;
    smtp.delayMs = 0;
    const second = await startProgram({
      args: [...launch.nodeOptions, join(root, 'dist/main.js')],
      env: { ...launch.env, ...env },
    });
    while (new Set(smtp.messageIds()).size < count) await sleep(50);
    // Time for a copy still on its way, were there one.
    await sleep(2_000);
    await second.stop();
    return { doubled: smtp.received.length - new Set(smtp.messageIds()).size, exitCode, sentByFirst };
  } finally {
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const count of counts.length > 0 ? counts : [40, 200, 600]) {
  for (const afterMs of signalAfter) {
    const { doubled, exitCode, sentByFirst } = await measure(count, afterMs);
    console.log(
      `N=${count} signal ${afterMs} ms after the first message reached a ${smtpDelayMs} ms server: ${doubled} doubled; first instance sent ${sentByFirst}, exited ${exitCode}`,
    );
  }
}
