import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { freshSqlite } from '../support/databases.js';
import { expectError, startServer } from '../support/http-server.js';

type LogLine = Record<string, unknown> & { err?: { type?: string; message?: string; stack?: string } };

describe('http: a store outage is logged once, with the request id and the cause', () => {
  it('writes one error line per failed request naming the request, the code and the cause; the client sees only the catalogue error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-outage-'));
    const file = join(dir, 'server.log');
    const fd = openSync(file, 'w');
    const database = await freshSqlite();
    // The server's connection, opened here so that the test can take it away.
    const connection = openDatabase(database.settings);
    const server = await startServer({
      env: database.env,
      logFd: fd,
      overrides: { log: { level: 'info' } },
      database: connection,
    });
    const answers: Record<string, unknown> = {};
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
      const created = await server.send('POST', '/api/user/create', {
        token: admin.secret,
        json: person,
        headers: { 'X-Request-Id': 'outage-create' },
      });
      answers.create = await expectError(created, 500, 15);
      const deleted = await server.send('DELETE', `/api/token/delete?id=${tokenId}`, {
        token: admin.secret,
        headers: { 'X-Request-Id': 'outage-delete' },
      });
      answers.delete = await expectError(deleted, 500, 21);
    } finally {
      await server.close();
      closeSync(fd);
      await database.drop();
    }
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine);
    rmSync(dir, { recursive: true, force: true });

    expect(answers).to.deep.equal({
      create: { code: 15, message: 'Unable to create requested user' },
      delete: { code: 21, message: 'Unable to delete requested token' },
    });
    for (const [requestId, code] of [
      ['outage-create', 15],
      ['outage-delete', 21],
    ] as const) {
      const errors = lines.filter((line) => line.requestId === requestId && line.msg !== 'request');
      expect(errors, `log lines of ${requestId} besides its access line`).to.have.length(1);
      const [outage] = errors;
      expect(outage).to.include({ level: 50, msg: 'outage', requestId, code });
      expect(outage!.err?.message).to.be.a('string').and.not.equal('');
      // The stack goes to the log, where an operator needs it, never to the client.
      expect(outage!.err?.stack).to.be.a('string').and.include(outage!.err!.message!);
      expect(lines.filter((line) => line.requestId === requestId && line.msg === 'request')).to.have.length(1);
    }
  });
});

describe('http: an outage on SQLite is logged without the values of its statement', () => {
  it('names the statement with placeholders: no email, name or password hash of what was being written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-outage-'));
    const file = join(dir, 'server.log');
    const fd = openSync(file, 'w');
    const database = await freshSqlite();
    const server = await startServer({
      env: database.env,
      logFd: fd,
      overrides: { log: { level: 'info' }, database: { timeoutMs: 300 } },
    });
    const locker: Knex = openDatabase(database.settings);
    const person = {
      firstname: 'Augusta',
      lastname: 'Byron-King',
      email: 'augusta.byron@example.com',
      password: 'correct horse battery',
    };
    try {
      const admin = await server.userWithToken(['*']);
      const locked = await locker.transaction();
      await locked.raw('INSERT INTO access_changes (kind, subject, created_at) VALUES (?, ?, ?)', ['user', 'lock', 0]);
      try {
        const created = await server.send('POST', '/api/user/create', {
          token: admin.secret,
          json: person,
          headers: { 'X-Request-Id': 'outage-locked' },
        });
        await expectError(created, 503, 29);
      } finally {
        await locked.rollback();
      }
    } finally {
      await locker.destroy();
      await server.close();
      closeSync(fd);
      await database.drop();
    }
    const text = readFileSync(file, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const outage = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine)
      .find((line) => line.requestId === 'outage-locked' && line.msg === 'outage');
    expect(JSON.stringify(outage))
      .to.match(/insert into `users`/)
      .and.include('?');
    for (const value of [person.email, person.firstname, person.lastname, 'scrypt', '$'])
      expect(JSON.stringify(outage), value).to.not.include(value);
  });
});
