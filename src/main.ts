import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import { createHttpServer } from './platform/http/server.js';
import { loadConfig } from './config/load-config.js';
import { buildApplication, type Application } from './container.js';
import { reasonOf } from './platform/failure-reason.js';

/** A start that cannot go on says why in one line on stderr, for whoever reads the supervisor's log. */
function refuseToStart(reason: string): never {
  process.stderr.write(`utility-api: ${reason}\n`);
  process.exit(1);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const config = loadConfig();
if (E.isLeft(config)) {
  for (const line of config.left) process.stderr.write(`utility-api: ${line}\n`);
  process.exit(1);
}
const settings = config.right;

let application: Application;
try {
  application = await buildApplication(settings);
} catch (error) {
  refuseToStart(`cannot start: ${reasonOf(error)}`);
}
const { logger } = application;
const { server, connections } = createHttpServer(application.httpApp(), { ...settings.http, ...settings.shutdown });

try {
  await listen(server, settings.port, settings.host);
} catch (error) {
  await application.close();
  refuseToStart(`cannot serve: ${reasonOf(error)}`);
}
server.on('error', (error) => logger.error({ err: error }, 'server error'));
const { port } = server.address() as AddressInfo;
logger.info({ port, storage: settings.storage }, `listening on http://localhost:${port}/`);
application.flushLogs();

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  // npm passes on the terminal's Ctrl-C, which the terminal also sent us: one stop is enough.
  if (stopping) return;
  stopping = true;
  const { drainDeadlineMs, readinessGraceMs } = settings.shutdown;
  // Readiness fails first; a load balancer given the grace to notice sends nothing more.
  application.beginDrain();
  if (readinessGraceMs > 0) {
    logger.info({ signal, readinessGraceMs }, 'stopping: readiness fails; still serving for the grace');
    await new Promise((resolve) => setTimeout(resolve, readinessGraceMs));
  }
  // Logged once the port is closed, so that whoever reads it finds no new connection accepted.
  const drained = connections.drain();
  logger.info({ signal, drainDeadlineMs }, 'stopping: finishing the requests received');
  application.flushLogs();
  let stage = 'finishing requests';
  setTimeout(() => {
    const cut = connections.inProgress();
    logger.error(
      { signal, drainDeadlineMs, ...cut },
      `stop cut at the drain deadline while ${stage}: ${cut.requests} requests unanswered, ${cut.connections} connections open`,
    );
    application.flushLogs();
    process.exit(1);
  }, drainDeadlineMs);

  await drained;
  stage = 'writing token use counts and closing the database';
  logger.info(`requests finished; ${stage}`);
  const { stopFailures } = await application.close();
  if (stopFailures.length > 0) application.flushLogs();
  process.exit(stopFailures.length === 0 ? 0 : 1);
}
process.on('SIGTERM', (signal) => void stop(signal));
process.on('SIGINT', (signal) => void stop(signal));
