import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { publishOrWarn } from './publishing.js';
import type { AccessChange, AccessChangeFeed, AccessChangeSubscription } from '../../domain/identity/access-changes.js';
import { accessChangeOf } from '../../domain/identity/access-change-text.js';

export const ACCESS_CHANGES_TABLE = 'access_changes';
/** Long past the moment every polling process has read a row; what is older is pruned. */
const RETENTION_MS = 60_000;

/** What this feed uses of a better-sqlite3 connection. */
interface RawConnection {
  pragma(statement: string, options: { simple: true }): unknown;
  prepare(sql: string): { all(...parameters: unknown[]): unknown[]; get(...parameters: unknown[]): unknown };
}
interface ChangeRow {
  readonly id: number;
  readonly kind: string;
  readonly subject: string;
}

/**
 * The feed on SQLite, for the processes sharing one database file (a server and the CLI beside
 * it). A change is a row; each subscriber holds a connection of its own and asks it, every
 * `pollMs`, for the file's `data_version`, which moves only when another connection committed:
 * an idle database costs a pragma per poll and no read.
 */
export class SqliteAccessChangeFeed implements AccessChangeFeed {
  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly pollMs = 100,
  ) {}

  publish(change: AccessChange): Promise<void> {
    return publishOrWarn(change, this.logger, async () => {
      const now = Date.now();
      await this.db(ACCESS_CHANGES_TABLE).insert({ kind: change.kind, subject: change.id, created_at: now });
      await this.db(ACCESS_CHANGES_TABLE)
        .where('created_at', '<', now - RETENTION_MS)
        .delete();
    });
  }

  async subscribe(heard: (change: AccessChange) => void, lost: () => void): Promise<AccessChangeSubscription> {
    // Knex's client opens a connection outside its pool: the subscription holds it for its life.
    const client = this.db.client as {
      acquireRawConnection(): Promise<RawConnection>;
      destroyRawConnection(connection: RawConnection): Promise<void>;
    };
    const connection = await client.acquireRawConnection();
    const dataVersion = () => connection.pragma('data_version', { simple: true });
    const newer = connection.prepare(`SELECT id, kind, subject FROM ${ACCESS_CHANGES_TABLE} WHERE id > ? ORDER BY id`);
    let version = dataVersion();
    let lastId = (
      connection.prepare(`SELECT COALESCE(MAX(id), 0) AS id FROM ${ACCESS_CHANGES_TABLE}`).get() as { id: number }
    ).id;

    const poll = () => {
      try {
        const current = dataVersion();
        if (current === version) return;
        version = current;
        const rows = newer.all(lastId) as ChangeRow[];
        // Ids only grow: a hole right after the last one read means rows were pruned unread.
        if (rows.length > 0 && rows[0]!.id > lastId + 1 && lastId > 0) lost();
        for (const row of rows) {
          lastId = row.id;
          const change = accessChangeOf(`${row.kind}:${row.subject}`);
          if (change) heard(change);
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'access changes could not be read: forgetting every cached token');
        lost();
      }
    };
    const timer = setInterval(poll, this.pollMs);
    timer.unref();
    return {
      close: async () => {
        clearInterval(timer);
        await client.destroyRawConnection(connection);
      },
    };
  }
}
