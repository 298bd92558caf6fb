import { expect } from 'chai';
import { Database } from '../../src/container.js';
import type { Knex } from 'knex';
import { expectError, startServer } from '../support/http-server.js';
import { freshSqlite } from '../support/databases.js';

describe('http: when the database is gone', () => {
  it('answers 500/0 as JSON with a request id and no stack trace, and the cached token keeps working', async () => {
    const database = await freshSqlite();
    const server = await startServer({ env: database.env });
    try {
      const cached = await server.tokenFor(['*']);
      const uncached = await server.tokenFor(['*']);
      expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${cached}` })).status).to.equal(200);

      await server.app.container.get<Knex>(Database).destroy();

      const response = await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${uncached}` });
      expect(response.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      const body = await expectError(response, 500, 0);
      expect(body).to.deep.equal({ code: 0, message: 'An unknown error occurred' });
      expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${cached}` })).status).to.equal(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
