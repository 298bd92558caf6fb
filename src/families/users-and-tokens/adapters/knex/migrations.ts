import type { Knex } from 'knex';
import type { Migration } from '../../../../platform/persistence/migrations.js';
import { searchKeysOf } from '../../domain/users/user-search.js';
import { UNDECOMPOSED_LETTERS } from '../../../../domain/text.js';
import { LISTING_SECRETS_TABLE } from './knex-user-store.js';
import { SEARCHED_COLUMNS } from './knex-user-listing.js';

const BACKFILL_BATCH = 500;

/**
 * Fills the folded search keys of the users stored before they existed, or before they were
 * folded as they are now, a batch at a time; `which` narrows the users to those that need it.
 */
async function backfillSearchKeys(db: Knex, which?: (query: Knex.QueryBuilder) => void): Promise<void> {
  let lastId = '';
  for (;;) {
    const rows = (await db('users')
      .select('id', 'email', 'first_name', 'last_name')
      .where('id', '>', lastId)
      .modify((query) => which?.(query))
      .orderBy('id')
      .limit(BACKFILL_BATCH)) as {
      id: string;
      email: string | null;
      first_name: string | null;
      last_name: string | null;
    }[];
    if (rows.length === 0) return;
    for (const row of rows) {
      const keys = searchKeysOf({ email: row.email, firstName: row.first_name, lastName: row.last_name });
      await db('users')
        .where({ id: row.id })
        .update({ search_email: keys.email, search_full_name: keys.fullName, search_last_name: keys.lastName });
    }
    lastId = rows.at(-1)!.id;
  }
}

/** The users and tokens tables' schema changes, oldest first. Append only: an applied migration is never edited. */
export const USERS_AND_TOKENS_MIGRATIONS: readonly Migration[] = [
  {
    name: '0001_users_and_tokens',
    async up(db) {
      await db.schema.createTable('users', (table) => {
        table.string('id', 36).primary();
        table.string('uid', 64).notNullable().unique();
        table.string('username', 64).notNullable().unique();
        table.string('first_name', 200);
        table.string('last_name', 200);
        table.string('display_name', 200);
        table.string('email', 320).unique();
        table.text('password_hash');
        table.text('permissions').notNullable();
        table.boolean('blocked').notNullable().defaultTo(false);
        table.bigInteger('created_at').notNullable();
        table.bigInteger('updated_at').notNullable();
      });
      await db.schema.createTable('tokens', (table) => {
        table.string('id', 36).primary();
        table.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
        table.string('secret_hash', 64).notNullable().unique();
        table.string('prefix', 32).notNullable();
        table.string('license', 32).notNullable().unique();
        table.string('name', 200);
        table.text('scopes').notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('expires_at');
        table.bigInteger('last_used_at');
        table.bigInteger('uses').notNullable().defaultTo(0);
        table.boolean('disabled').notNullable().defaultTo(false);
        table.index(['user_id', 'created_at']);
      });
    },
    async down(db) {
      await db.schema.dropTable('tokens');
      await db.schema.dropTable('users');
    },
  },
  {
    name: '0002_token_issuer',
    async up(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.string('issued_by', 36);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropColumn('issued_by');
      });
    },
  },
  {
    name: '0003_tokens_by_issuer',
    async up(db) {
      // Deleting a user deletes the tokens it issued for others; before this, they were kept.
      await db('tokens').whereNotNull('issued_by').whereNotIn('issued_by', db('users').select('id')).delete();
      await db.schema.alterTable('tokens', (table) => {
        table.index(['issued_by']);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['issued_by']);
      });
    },
  },
  {
    name: '0006_token_rate_limit',
    async up(db) {
      // Both null: the installation's default policy applies, as it did to every token before.
      await db.schema.alterTable('tokens', (table) => {
        table.integer('rate_limit_requests');
        table.integer('rate_limit_per_seconds');
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropColumn('rate_limit_requests');
        table.dropColumn('rate_limit_per_seconds');
      });
    },
  },
  {
    name: '0008_token_issued_through',
    async up(db) {
      // The token a token was minted through; null for every token before: they hang on their issuer only.
      await db.schema.alterTable('tokens', (table) => {
        table.string('issued_through', 36);
        table.index(['issued_through']);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['issued_through']);
        table.dropColumn('issued_through');
      });
    },
  },
  {
    name: '0010_user_listing',
    async up(db) {
      // Users are listed newest first and searched by the prefix of a folded username, email or
      // name (see foldForSearch): the keys are stored folded, and every searched column and the
      // order have an index, so that a page is a few index ranges however many users there are.
      await db.schema.alterTable('users', (table) => {
        table.string('search_email', 320);
        table.string('search_full_name', 401);
        table.string('search_last_name', 200);
      });
      await backfillSearchKeys(db);
      // Each searched column's index holds the creation time and id beside the key (and whether
      // the user is blocked), so that a search's matches are sorted from the index alone.
      if (db.client.config.client === 'pg') {
        // Byte order, whatever the database's collation: a prefix's range is then exactly its matches.
        await db.raw('create index users_newest on users (created_at, id collate "C")');
        for (const column of SEARCHED_COLUMNS)
          await db.raw(
            `create index users_${column}_prefix on users (${column} collate "C", created_at, id collate "C") include (blocked)`,
          );
      } else {
        await db.schema.alterTable('users', (table) => {
          table.index(['created_at', 'id'], 'users_newest');
          for (const column of SEARCHED_COLUMNS)
            table.index([column, 'created_at', 'id', 'blocked'], `users_${column}_prefix`);
        });
      }
      // What list cursors are signed with, made on first use (see KnexUserStore.listingSecret).
      await db.schema.createTable(LISTING_SECRETS_TABLE, (table) => {
        table.string('name', 64).primary();
        table.string('secret', 64).notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable(LISTING_SECRETS_TABLE);
      await db.schema.alterTable('users', (table) => {
        table.dropIndex([], 'users_newest');
        for (const column of SEARCHED_COLUMNS) table.dropIndex([], `users_${column}_prefix`);
        table.dropColumn('search_email');
        table.dropColumn('search_full_name');
        table.dropColumn('search_last_name');
      });
    },
  },
  {
    name: '0011_token_rotation_addresses_origin',
    async up(db) {
      await db.schema.alterTable('tokens', (table) => {
        // Nothing recorded how the tokens before were issued: none of them is taken for a session.
        table.string('origin', 16).notNullable().defaultTo('token');
        // A JSON list of CIDRs; null: from anywhere, as every token was before.
        table.text('allowed_addresses');
        table.string('rotated_to', 36);
        table.bigInteger('rotation_ends_at');
        table.string('rotated_from', 36);
        table.index(['user_id', 'origin']);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['user_id', 'origin']);
        table.dropColumn('origin');
        table.dropColumn('allowed_addresses');
        table.dropColumn('rotated_to');
        table.dropColumn('rotation_ends_at');
        table.dropColumn('rotated_from');
      });
    },
  },
  {
    name: '0013_quotas',
    async up(db) {
      // Null in both: no quota, as for every user and token before.
      for (const name of ['users', 'tokens'])
        await db.schema.alterTable(name, (table) => {
          table.bigInteger('quota_requests');
          table.string('quota_per', 8);
        });
    },
    async down(db) {
      for (const name of ['users', 'tokens'])
        await db.schema.alterTable(name, (table) => {
          table.dropColumn('quota_requests');
          table.dropColumn('quota_per');
        });
    },
  },
  {
    name: '0015_token_lineage',
    async up(db) {
      // Null: the token replaced none, as every token rotated before counted its quota afresh.
      await db.schema.alterTable('tokens', (table) => {
        table.string('lineage', 36);
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropColumn('lineage');
      });
    },
  },
  {
    name: '0016_search_keys_spell_out_letters',
    async up(db) {
      // The search keys now spell out the letters that carry no accent (ø as o, ß as ss): only the
      // users whose stored keys hold one of them are folded again.
      await backfillSearchKeys(db, (query) => {
        void query.where((holding) => {
          for (const letter of UNDECOMPOSED_LETTERS)
            for (const column of ['search_email', 'search_full_name', 'search_last_name'])
              void holding.orWhere(column, 'like', `%${letter}%`);
        });
      });
    },
    async down() {
      // Keys folded further still find what they found: nothing to undo.
    },
  },
  {
    name: '0020_tokens_by_expiry',
    async up(db) {
      // Each server's webhook worker looks for the tokens that expire within a week, about once a
      // minute: a range of this index rather than a read of every token.
      await db.schema.alterTable('tokens', (table) => {
        table.index(['expires_at', 'id'], 'tokens_by_expiry');
      });
    },
    async down(db) {
      await db.schema.alterTable('tokens', (table) => {
        table.dropIndex(['expires_at', 'id'], 'tokens_by_expiry');
      });
    },
  },
];
