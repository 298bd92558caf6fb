import { expect } from 'chai';
import pino from 'pino';
import { databaseCheck, openDatabase } from '../../src/platform/persistence/database.js';
import { RedisConnection } from '../../src/platform/redis/redis-connection.js';
import type { DependencyCheck } from '../../src/platform/health/ports.js';
import { sqlDatabases } from '../support/databases.js';
import { settlesWithin } from '../support/eventually.js';
import { closedPort, REDIS_URL } from '../support/redis.js';

/** What /readyz promises: each dependency answers within a second, or is reported silent. */
const READINESS_DEADLINE_MS = 1_000;

const silent = pino({ level: 'silent' });

/** Each adapter of the port, opened once answering and once not; `close` releases what it opened. */
const checkAdapters: {
  name: string;
  up: () => Promise<{ check: DependencyCheck; close(): Promise<void> }>;
  down: () => Promise<{ check: DependencyCheck; close(): Promise<void> }>;
}[] = [
  ...sqlDatabases.map(({ name, open }) => ({
    name: `database on ${name}`,
    up: async () => {
      const database = await open();
      return { check: databaseCheck(database.db), close: () => database.drop() };
    },
    // SQLite goes away with its connection; a PostgreSQL server with its port.
    down: async () => {
      if (name === 'SQLite') {
        const database = await open();
        await database.db.destroy();
        return { check: databaseCheck(database.db), close: () => database.drop() };
      }
      const unreachable = openDatabase({
        client: 'postgres',
        url: `postgres://postgres@127.0.0.1:${await closedPort()}/none`,
      });
      return { check: databaseCheck(unreachable), close: () => unreachable.destroy() };
    },
  })),
  {
    name: 'Redis connection',
    up: async () => {
      if (!REDIS_URL) throw new Error('TEST_REDIS_URL is not set');
      const connection = new RedisConnection({ url: REDIS_URL, commandTimeoutMs: 250 }, silent);
      await connection.start();
      return { check: connection, close: () => connection.stop() };
    },
    down: async () => {
      const connection = new RedisConnection(
        { url: `redis://127.0.0.1:${await closedPort()}`, commandTimeoutMs: 250 },
        silent,
      );
      await connection.start();
      return { check: connection, close: () => connection.stop() };
    },
  },
];

for (const adapter of checkAdapters) {
  describe(`contract: DependencyCheck (${adapter.name})`, () => {
    it('names itself for the health document and says what its silence means', async () => {
      const { check, close } = await adapter.down();
      try {
        expect(check.component).to.match(/^[a-z]+$/);
        expect(check.componentType).to.be.oneOf(['datastore', 'component']);
        expect(check.whenDown).to.be.oneOf(['fail', 'warn']);
        if (check.whenDown === 'warn') expect(check.degraded).to.be.a('string');
      } finally {
        await close();
      }
    });

    (adapter.name !== 'Redis connection' || REDIS_URL ? it : it.skip)(
      'resolves once the dependency has answered',
      async () => {
        const { check, close } = await adapter.up();
        try {
          await check.probe();
        } finally {
          await close();
        }
      },
    );

    it('rejects, well within readiness’s second, when it cannot be reached', async () => {
      const { check, close } = await adapter.down();
      try {
        // Readiness gives each dependency a second (the promise of /readyz), past which it reports
        // the silence rather than the dependency's own reason: the deadline is that promise.
        let rejected = false;
        await settlesWithin(
          check.probe().catch(() => {
            rejected = true;
          }),
          'a probe of a dependency that cannot be reached',
          READINESS_DEADLINE_MS,
        );
        expect(rejected).to.equal(true);
      } finally {
        await close();
      }
    });
  });
}
