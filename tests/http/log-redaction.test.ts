import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../support/http-server.js';
import { closedPort } from '../support/redis.js';

describe('http: secrets never reach the log', () => {
  it('redacts tokens, passwords, Authorization and credentials in URLs, whatever logs them and however deep', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-redaction-'));
    const file = join(dir, 'server.log');
    const fd = openSync(file, 'w');
    const redisPassword = 'redis-pass-4d1f';
    const server = await startServer({
      logFd: fd,
      overrides: { log: { level: 'trace' } },
      env: { REDIS_URL: `redis://user:${redisPassword}@127.0.0.1:${await closedPort()}` },
    });
    const secrets: string[] = [redisPassword];
    try {
      const admin = await server.userWithToken(['*']);
      secrets.push(admin.secret);
      const password = 'correct horse battery staple';
      const basic = Buffer.from(`ada:${password}`).toString('base64');
      secrets.push(password, basic);
      const ada = await server.send('POST', '/api/user/create', {
        token: admin.secret,
        json: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password, username: 'ada' },
      });
      expect(ada.status).to.equal(201);
      const issued = await server.send('POST', '/api/token/create', { headers: { Authorization: `Basic ${basic}` } });
      expect(issued.status).to.equal(201);
      secrets.push(((await issued.json()) as { token: string }).token);
      const wrong = Buffer.from('ada:not the password at all').toString('base64');
      secrets.push('not the password at all', wrong);
      expect(
        (await server.send('POST', '/api/token/create', { headers: { Authorization: `Basic ${wrong}` } })).status,
      ).to.equal(401);

      // What a component might log on failure: a request's headers, settings, an error quoting a URL with its credentials.
      const smtpPassword = 'smtp-pass-93kq';
      const smtpUrl = `smtp://mailer:${smtpPassword}@smtp.example.com:587`;
      secrets.push(smtpPassword);
      server.app.logger.error(
        {
          err: new Error(`cannot connect to ${smtpUrl}`, { cause: new Error(`Bearer ${admin.secret} refused`) }),
          authorization: `Bearer ${admin.secret}`,
          request: { headers: { authorization: `Basic ${basic}`, cookie: 'session=abc' } },
          settings: { mail: { smtpUrl }, redis: { url: `redis://:${redisPassword}@redis.internal` } },
          password,
          token: admin.secret,
        },
        `mail delivery failed for ${smtpUrl} with Bearer ${admin.secret}`,
      );
      server.app.logger.warn(`retrying ${smtpUrl}`);
    } finally {
      await server.close();
      closeSync(fd);
    }
    const text = readFileSync(file, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((line) => line.msg === 'request')).to.equal(true);
    for (const secret of secrets) expect(text, `the log holds ${secret}`).not.to.include(secret);
    const failure = lines.find((line) => String(line.msg).startsWith('mail delivery failed'))!;
    expect(failure).to.deep.include({ authorization: '[Redacted]', password: '[Redacted]', token: '[Redacted]' });
    expect(failure.msg).to.equal(
      'mail delivery failed for smtp://mailer:[Redacted]@smtp.example.com:587 with Bearer [Redacted]',
    );
    expect(failure.settings).to.deep.equal({ mail: { smtpUrl: '[Redacted]' }, redis: { url: '[Redacted]' } });
    expect((failure.err as { message: string }).message).to.include('smtp://mailer:[Redacted]@smtp.example.com:587');
    expect(lines.some((line) => line.msg === 'retrying smtp://mailer:[Redacted]@smtp.example.com:587')).to.equal(true);
    expect(lines.some((line) => line.msg === 'redis does not answer: counting per instance until it does')).to.equal(
      true,
    );
  });
});
