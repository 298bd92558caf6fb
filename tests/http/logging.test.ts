import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../support/http-server.js';

describe('http: request logs', () => {
  it('writes one JSON line per request with its id and status, and never the query string or the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-log-'));
    const file = join(dir, 'server.log');
    const fd = openSync(file, 'w');
    const server = await startServer({ logFd: fd, overrides: { log: { level: 'info' } } });
    let token: string;
    try {
      token = await server.tokenFor(['*']);
      for (let i = 0; i < 100; i++) {
        const response = await server.get(`/api/crypto/enc?data=very-secret-${i}`, {
          Authorization: `Bearer ${token}`,
          'X-Request-Id': `req-${i}`,
        });
        expect(response.status).to.equal(200);
      }
      expect((await server.get('/api/nope', { 'X-Request-Id': 'req-404' })).status).to.equal(404);
    } finally {
      await server.close();
      closeSync(fd);
    }
    const text = readFileSync(file, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const requests = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request');
    expect(requests).to.have.length(101);
    expect(requests[0]).to.include({
      requestId: 'req-0',
      method: 'GET',
      path: '/api/crypto/enc',
      status: 200,
      level: 30,
      pid: process.pid,
      hostname: hostname(),
    });
    // The same shape as every other line pino writes, fields in the same order.
    expect(Object.keys(requests[0]!)).to.deep.equal([
      'level',
      'time',
      'pid',
      'hostname',
      'requestId',
      'method',
      'path',
      'status',
      'ms',
      'msg',
    ]);
    expect(requests[0]!.time)
      .to.be.a('number')
      .within(Date.now() - 60_000, Date.now());
    expect(requests[0]!.ms).to.be.a('number').at.least(0);
    expect(requests[100]).to.include({ requestId: 'req-404', path: '/api/nope', status: 404 });
    expect(text).not.to.include('very-secret');
    expect(text).not.to.include(token);
  });
});
