import { expect } from 'chai';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { expectError, startServer } from '../support/http-server.js';
import { freshSqlite } from '../support/databases.js';

describe('http: when the database is gone', () => {
  it('answers 500/0 as JSON with a request id and no stack trace, and the cached token keeps working', async () => {
    const database = await freshSqlite();
    // The server's connection, opened here so that the test can take it away.
    const connection = openDatabase(database.settings);
    const server = await startServer({ env: database.env, database: connection });
    try {
      const cached = await server.tokenFor(['*']);
      const uncached = await server.tokenFor(['*']);
      expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${cached}` })).status).to.equal(200);

      await connection.destroy();

      const response = await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${uncached}` });
      expect(response.headers.get('x-request-id')).to.match(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
      const body = await expectError(response, 500, 0);
      expect(body).to.deep.equal({ code: 0, message: 'An unknown error occurred', details: 'token store unavailable' });
      expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${cached}` })).status).to.equal(200);
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('answers the store-failure codes 15-17 and 19-21 for management writes, and changes nothing', async () => {
    const database = await freshSqlite();
    const connection = openDatabase(database.settings);
    const server = await startServer({ env: database.env, database: connection });
    try {
      const admin = await server.userWithToken(['*']);
      const tokenId = (
        (await (await server.send('GET', '/api/token/info', { token: admin.secret })).json()) as { id: string }
      ).id;
      await connection.destroy();
      const person = {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.com',
        password: 'correct horse battery',
      };
      await expectError(await server.send('POST', '/api/user/create', { token: admin.secret, json: person }), 500, 15);
      await expectError(
        await server.send('PATCH', '/api/user/update', { token: admin.secret, json: { displayname: 'x' } }),
        500,
        16,
      );
      await expectError(await server.send('DELETE', '/api/user/delete', { token: admin.secret }), 500, 17);
      await expectError(await server.send('POST', '/api/token/create', { token: admin.secret, json: {} }), 500, 19);
      await expectError(
        await server.send('DELETE', `/api/token/delete?id=${tokenId}`, { token: admin.secret }),
        500,
        21,
      );
    } finally {
      await server.close();
    }
    const users = await database.db('users').select('username');
    expect(users).to.have.length(1);
    expect(await database.db('tokens').count({ n: '*' })).to.deep.equal([{ n: 1 }]);
    await database.drop();
  });
});
