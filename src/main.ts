import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { createHttpServer } from './adapters/http/server.js';
import { loadConfig } from './config/load-config.js';
import { buildApplication, HttpApp, type Application } from './container.js';

const config = loadConfig();
if (E.isLeft(config)) {
  for (const line of config.left) process.stderr.write(`utility-api: ${line}\n`);
  process.exit(1);
}

let application: Application;
try {
  application = await buildApplication(config.right);
} catch (error) {
  process.stderr.write(`utility-api: cannot start: ${(error as Error).message}\n`);
  process.exit(1);
}
const { container, logger } = application;
const server = createHttpServer(container.get<Koa>(HttpApp), config.right.http.maxHeaderBytes);

server.on('error', (error) => {
  logger.fatal({ err: error }, 'server error');
  process.stderr.write(`utility-api: cannot serve: ${error.message}\n`);
  process.exit(1);
});
server.listen(config.right.port, config.right.host, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, storage: config.right.storage }, `listening on http://localhost:${port}/api`);
  application.flushLogs();
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Stop accepting, let in-flight requests finish, then release the database.
  server.close(async () => {
    await application.close();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
