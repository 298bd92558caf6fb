import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/platform/persistence/database.js';

/**
 * The SQLite connection's query compiler (src/platform/persistence/sqlite-client.ts): a first row's
 * `limit 1` is written into the SQL, every other limit stays a parameter, and the rows are those
 * Knex's own compiler gives.
 */
describe('adapter: the SQLite client, which writes a first row’s limit into the SQL', () => {
  let db: Knex;
  before(async () => {
    db = openDatabase({ client: 'sqlite', filename: ':memory:' });
    await db.schema.createTable('letters', (table) => {
      table.integer('position').primary();
      table.string('letter');
    });
    await db('letters').insert(['a', 'b', 'c', 'd', 'e'].map((letter, index) => ({ position: index + 1, letter })));
  });
  after(() => db.destroy());

  it('writes first()’s limit 1, binds the query’s own values, and finds the first row', async () => {
    const query = db('letters').where('position', '>', 2).orderBy('position').first('letter');
    const { sql, bindings } = query.toSQL();
    expect(sql).to.equal('select `letter` from `letters` where `position` > ? order by `position` asc limit 1');
    expect(bindings).to.deep.equal([2]);
    expect(await query).to.deep.equal({ letter: 'c' });
    expect(await db('letters').where({ position: 9 }).first()).to.equal(undefined);
  });

  it('binds any other limit, and an offset, as Knex does', async () => {
    const page = db('letters').orderBy('position').limit(2).offset(1).select('letter');
    const { sql, bindings } = page.toSQL();
    expect(sql).to.equal('select `letter` from `letters` order by `position` asc limit ? offset ?');
    expect(bindings).to.deep.equal([2, 1]);
    expect(await page).to.deep.equal([{ letter: 'b' }, { letter: 'c' }]);

    const nth = db('letters').orderBy('position').offset(3).first('letter');
    expect(nth.toSQL().sql).to.equal('select `letter` from `letters` order by `position` asc limit 1 offset ?');
    expect(await nth).to.deep.equal({ letter: 'd' });

    // An offset alone: SQLite wants a limit before it, which Knex writes as -1.
    const rest = db('letters').orderBy('position').offset(3).select('letter');
    expect(rest.toSQL().bindings).to.deep.equal([-1, 3]);
    expect(await rest).to.deep.equal([{ letter: 'd' }, { letter: 'e' }]);
  });
});
