import type { Knex } from 'knex';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Logger } from 'pino';
import { publishOrWarn } from './publishing.js';
import type { AccessChange, AccessChangeFeed, AccessChangeSubscription } from '../../domain/identity/access-changes.js';
import { accessChangeOf } from '../../domain/identity/access-change-text.js';

export interface PostgresFeedSettings {
  readonly url: string;
  /** The schema the stores use: deployments (and test runs) in one database hear only their own changes. */
  readonly schema?: string;
  /** How long to wait before listening again after the connection was lost. */
  readonly reconnectMs?: number;
}

/**
 * The feed on PostgreSQL: `NOTIFY` through the stores' pool, `LISTEN` on a connection of its own.
 * When that connection is lost, every cached token is forgotten (changes may be missed while it
 * is down) and it connects again, forgetting once more when it is back.
 */
export class PostgresAccessChangeFeed implements AccessChangeFeed {
  private readonly channel: string;

  constructor(
    private readonly db: Knex,
    private readonly settings: PostgresFeedSettings,
    private readonly logger: Logger,
  ) {
    this.channel = `utility_api_access:${settings.schema ?? 'public'}`;
  }

  publish(change: AccessChange): Promise<void> {
    return publishOrWarn(change, this.logger, (text) => this.db.raw('SELECT pg_notify(?, ?)', [this.channel, text]));
  }

  async subscribe(heard: (change: AccessChange) => void, lost: () => void): Promise<AccessChangeSubscription> {
    let closed = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;

    const listen = async (): Promise<pg.Client> => {
      // Loaded when an installation configures it, not at every start: it costs memory that most never use.
      const { Client } = createRequire(import.meta.url)('pg') as typeof pg;
      const connection = new Client({ connectionString: this.settings.url, keepAlive: true });
      connection.on('notification', (message) => {
        if (message.channel !== this.channel || message.payload === undefined) return;
        const change = accessChangeOf(message.payload);
        if (change) heard(change);
      });
      // An error is followed by 'end', where the loss is handled; unhandled, it would end the process.
      connection.on('error', (error) => this.logger.warn({ err: error }, 'access-change connection failed'));
      connection.on('end', () => {
        if (closed || client !== connection) return;
        client = undefined;
        lost();
        this.logger.warn('access-change connection lost: every cached token forgotten; listening again');
        listenAgain();
      });
      try {
        await connection.connect();
        await connection.query(`LISTEN ${connection.escapeIdentifier(this.channel)}`);
      } catch (error) {
        await connection.end().catch(() => {});
        throw error;
      }
      return connection;
    };
    const listenAgain = () => {
      retry = setTimeout(() => {
        listen().then(
          async (connection) => {
            if (closed) return void (await connection.end());
            client = connection;
            // What was published while nobody listened is gone: start again from nothing.
            lost();
          },
          () => {
            if (!closed) listenAgain();
          },
        );
      }, this.settings.reconnectMs ?? 1000);
      retry.unref();
    };

    client = await listen();
    return {
      close: async () => {
        closed = true;
        clearTimeout(retry);
        await client?.end();
      },
    };
  }
}
