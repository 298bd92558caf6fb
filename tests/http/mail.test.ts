import { expect } from 'chai';
import type { AddressObject } from 'mailparser';
import type { MemoryMailer } from '../../src/adapters/mail/memory-mailer.js';
import { Mailer, Outbox } from '../../src/domain/mail/ports.js';
import { expectError, httpBackends, startServer, type TestServer } from '../support/http-server.js';
import { sqlDatabases } from '../support/databases.js';
import { ManualClock } from '../support/manual-clock.js';
import { startSmtpFixture, type SmtpFixture } from '../support/smtp-fixture.js';

interface Accepted {
  readonly id: string;
  readonly status: string;
  readonly messageId: string;
}
interface StatusBody {
  readonly id: string;
  readonly status: 'queued' | 'sent' | 'failed';
  readonly to: string[];
  readonly subject: string;
  readonly attempts: number;
  readonly createdAt: string;
  readonly sentAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
}

const A_MAIL = { to: 'ada@example.com', subject: 'Hello', content: 'Hi **there**' };

/** A worker that looks often and retries soon, so that a test waits milliseconds, not minutes. */
const QUICK_DELIVERY = { pollIntervalMs: 20, retryBaseMs: 40, retryMaxMs: 80, smtpConnections: 2 };

const send = (server: TestServer, token: string, json: unknown, headers: Record<string, string> = {}) => server.send('POST', '/api/mail/send', { token, json, headers });
const statusOf = (server: TestServer, token: string, id: string) => server.get(`/api/mail/status?id=${id}`, { Authorization: `Bearer ${token}` });

async function accepted(response: Response): Promise<Accepted> {
  expect(response.status, await response.clone().text()).to.equal(202);
  return (await response.json()) as Accepted;
}

/** Polls the status until it is `status`, and gives it. */
async function eventually(server: TestServer, token: string, id: string, status: StatusBody['status'], timeoutMs = 10_000): Promise<StatusBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await (await statusOf(server, token, id)).json()) as StatusBody;
    if (body.status === status) return body;
    if (Date.now() > deadline) expect.fail(`message ${id} still ${body.status} (${body.lastError}) after ${timeoutMs} ms, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const storedCount = async (server: TestServer) => (await server.app.container.get<Outbox>(Outbox).list({ limit: 1000 })).length;
const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] => [field ?? []].flat().flatMap((object) => object.value.map((each) => each.address ?? ''));

for (const backend of httpBackends) {
  describe(`http: mail (${backend.name}, memory mailer)`, () => {
    let server: TestServer;
    let drop: () => Promise<void>;
    let token: string;
    before(async () => {
      const database = await backend.open();
      drop = database.drop;
      server = await startServer({ env: database.env, overrides: { mail: { ...QUICK_DELIVERY, maxContentBytes: 2048, from: 'noreply@example.com' } } });
      token = await server.tokenFor(['Mail::Send']);
    });
    after(async () => {
      await server.close();
      await drop();
    });

    it('accepts a message with 202 once stored, then delivers it: its status says so', async () => {
      const body = await accepted(await send(server, token, { ...A_MAIL, cc: ['grace@example.com'], fromName: 'Support' }));
      expect(Object.keys(body)).to.deep.equal(['id', 'status', 'messageId']);
      expect(body.status).to.equal('queued');
      expect(body.messageId).to.equal(`<${body.id}@example.com>`);
      const sent = await eventually(server, token, body.id, 'sent');
      expect(sent).to.deep.include({ id: body.id, to: ['ada@example.com'], subject: 'Hello', attempts: 1, nextAttemptAt: null, lastError: null });
      expect(Date.parse(sent.sentAt!)).to.be.at.least(Date.parse(sent.createdAt));
      const delivered = server.app.container.get<MemoryMailer>(Mailer).delivered.find((message) => message.id === body.id)!;
      expect(delivered).to.deep.include({ subject: 'Hello', text: 'Hi **there**', html: '<p>Hi <strong>there</strong></p>\n', cc: ['grace@example.com'] });
      expect(delivered.from).to.deep.equal({ address: 'noreply@example.com', name: 'Support' });
    });

    it('refuses a request without a token (401/3) or Mail::Send (403/1), storing nothing', async () => {
      const before = await storedCount(server);
      await expectError(await server.send('POST', '/api/mail/send', { json: A_MAIL }), 401, 3);
      await expectError(await send(server, await server.tokenFor(['Mail::Read']), A_MAIL), 403, 1);
      expect(await storedCount(server)).to.equal(before);
    });

    it('names missing fields (400/10) and each invalid one (400/11), storing nothing', async () => {
      const before = await storedCount(server);
      expect((await expectError(await send(server, token, {}), 400, 10)).details).to.equal('Missing: to, subject, content');
      expect((await expectError(await send(server, token, { subject: 'x', content: 'y' }), 400, 10)).details).to.equal('Missing: to');
      const invalid: [unknown, string][] = [
        [{ ...A_MAIL, to: 'Ada <ada@example.com>' }, 'to must be an email address'],
        [{ ...A_MAIL, to: ['ada@example.com', 'x'] }, 'to[1] must be'],
        [{ ...A_MAIL, bcc: 'ada@example.com\r\nX-Injected: 1' }, 'bcc must be'],
        [{ ...A_MAIL, subject: 'Hi\r\nBcc: victim@example.com' }, 'subject must not contain line breaks'],
        [{ ...A_MAIL, fromName: 'Support\nBcc: victim@example.com' }, 'fromName must not contain line breaks'],
        [{ ...A_MAIL, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }, 'at most 50 recipients'],
        [{ ...A_MAIL, content: 'x'.repeat(2049) }, 'content must be at most 2048 bytes'],
        [{ ...A_MAIL, content: 'Dear {{name}}' }, 'content uses {{name}}'],
        [{ ...A_MAIL, user: { name: 'Ada' } }, 'the variable user must be a string or a number'],
        [{ ...A_MAIL, list: ['a'] }, 'the variable list must be'],
        [{ ...A_MAIL, text: 'plain' }, 'text is no longer taken'],
        [{ ...A_MAIL, html: '<p>x</p>' }, 'html is no longer taken'],
        [{ ...A_MAIL, url: 'https://example.com' }, 'url is no longer taken'],
        [{ ...A_MAIL, 'bad-name': 1 }, 'is not a field, nor a variable name'],
        // Used nowhere, it would have been read and dropped: a misspelt field, say.
        [{ ...A_MAIL, fromname: 'Support' }, 'fromname is neither a field nor a variable that subject or content uses as {{fromname}}'],
        [{ ...A_MAIL, subject: 42 }, 'subject must be text'],
        [[A_MAIL], 'the body must be a JSON object'],
      ];
      for (const [body, details] of invalid) {
        expect((await expectError(await send(server, token, body), 400, 11)).details, JSON.stringify(body).slice(0, 80)).to.include(details);
      }
      expect(await storedCount(server)).to.equal(before);
    });

    it('takes a body up to twice mail.maxContentBytes plus 64 KiB, beyond the server’s usual limit, and no more', async () => {
      // Every character written as a JSON escape: 18 KB of body for 2 KB of content and a subject of 998 characters.
      const escaped = (text: string) => [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      const body = `{"to":"ada@example.com","subject":"${escaped('S'.repeat(998))}","content":"${escaped('c'.repeat(2048))}"}`;
      expect(body.length).to.be.above(server.app.config.http.maxBodyBytes);
      const big = await server.send('POST', '/api/mail/send', { token, raw: { body, contentType: 'application/json' } });
      expect(big.status, await big.clone().text()).to.equal(202);
      const tooBig = await send(server, token, { ...A_MAIL, filler: 'y'.repeat(2 * 2048 + 65_536) });
      expect((await expectError(tooBig, 400, 11)).details).to.include(`at most ${2 * 2048 + 65_536} bytes`);
    });

    it('fills {{variables}} in, and answers the same Idempotency-Key with the first answer (Idempotent-Replayed), another body with 409/26', async () => {
      const mail = { ...A_MAIL, subject: 'Order {{order}}', content: 'Thanks, {{name}}', order: 42, name: 'Ada' };
      const key = { 'Idempotency-Key': `order-${Date.now()}` };
      const first = await send(server, token, mail, key);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const body = await accepted(first);
      const before = await storedCount(server);
      const replay = await send(server, token, { name: 'Ada', order: 42, ...A_MAIL, subject: 'Order {{order}}', content: 'Thanks, {{name}}' }, key);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(await accepted(replay)).to.deep.equal(body);
      await expectError(await send(server, token, { ...mail, order: 43 }, key), 409, 26);
      // The key is the token's: another token's same key is another key.
      expect((await accepted(await send(server, await server.tokenFor(['Mail::Send']), mail, key))).id).to.not.equal(body.id);
      expect(await storedCount(server)).to.equal(before + 1);
      expect((await eventually(server, token, body.id, 'sent')).subject).to.equal('Order 42');
      const delivered = server.app.container.get<MemoryMailer>(Mailer).delivered.filter((message) => message.id === body.id);
      expect(delivered.map((message) => message.text)).to.deep.equal(['Thanks, Ada']);
    });

    it('refuses an Idempotency-Key over 255 characters (400/9) or sent empty (400/8)', async () => {
      expect((await expectError(await send(server, token, A_MAIL, { 'Idempotency-Key': 'k'.repeat(256) }), 400, 9)).details).to.include('idempotency-key');
      await expectError(await send(server, token, A_MAIL, { 'Idempotency-Key': ' ' }), 400, 8);
      expect(await accepted(await send(server, token, A_MAIL, { 'Idempotency-Key': `${'k'.repeat(250)}${Date.now() % 100_000}`.slice(0, 255) }))).to.have.property('id');
    });

    it('shows a message to its sender and to Mail::Read holders; to anyone else it does not exist (404/22)', async () => {
      const { id } = await accepted(await send(server, token, A_MAIL));
      expect((await statusOf(server, token, id)).status).to.equal(200);
      expect((await statusOf(server, await server.tokenFor(['Mail::Read']), id)).status).to.equal(200);
      await expectError(await statusOf(server, await server.tokenFor(['Mail::Send']), id), 404, 22);
      await expectError(await statusOf(server, token, '00000000-0000-4000-8000-000000000000'), 404, 22);
      await expectError(await statusOf(server, await server.tokenFor(['Cryptography::Encrypt']), id), 403, 1);
      await expectError(await statusOf(server, token, 'not-an-id'), 400, 7);
      await expectError(await server.get('/api/mail/status', { Authorization: `Bearer ${token}` }), 400, 6);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: mail delivered to a real SMTP server (${database.name})`, () => {
    let smtp: SmtpFixture;
    let server: TestServer;
    let drop: () => Promise<void>;
    let token: string;
    before(async () => {
      smtp = await startSmtpFixture();
      const opened = await database.open();
      drop = opened.drop;
      server = await startServer({ env: { ...opened.env, UTILITY_API_SMTP_URL: smtp.url, UTILITY_API_MAIL_FROM: 'noreply@example.com' }, overrides: { mail: QUICK_DELIVERY } });
      token = await server.tokenFor(['Mail::Send']);
    });
    after(async () => {
      await server.close();
      await drop();
      await smtp.close();
    });

    it('delivers what was asked: recipients, subject, both parts, Message-ID, sender, variables filled', async () => {
      const body = await accepted(
        await send(server, token, {
          to: ['ada@example.com', 'grace@bücher.example'],
          cc: 'team@example.com',
          bcc: ['audit@example.com'],
          replyTo: 'help@example.com',
          fromName: 'Zoë at Support',
          subject: 'Your order {{order}} — ☕',
          content: '# Hello {{name}}\n\nYour code is **{{code}}**.\n\n<script>alert(1)</script>',
          name: 'Ada <Lovelace>',
          order: 42,
          code: 'A&B',
        }),
      );
      expect((await eventually(server, token, body.id, 'sent')).attempts).to.equal(1);
      const arrived = smtp.received.find((mail) => mail.parsed.messageId === body.messageId)!;
      expect(arrived, 'the message at the SMTP server').to.not.equal(undefined);
      const { parsed, envelope } = arrived;
      expect(envelope.from).to.equal('noreply@example.com');
      // smtp-server and mailparser give internationalised domains, sent in ASCII, back in Unicode.
      expect(envelope.to).to.have.members(['ada@example.com', 'grace@bücher.example', 'team@example.com', 'audit@example.com']);
      expect(addressesOf(parsed.to)).to.deep.equal(['ada@example.com', 'grace@bücher.example']);
      expect(addressesOf(parsed.cc)).to.deep.equal(['team@example.com']);
      expect(parsed.bcc, 'no Bcc header').to.equal(undefined);
      expect(addressesOf(parsed.replyTo)).to.deep.equal(['help@example.com']);
      expect(parsed.from!.value).to.deep.equal([{ address: 'noreply@example.com', name: 'Zoë at Support' }]);
      expect(parsed.subject).to.equal('Your order 42 — ☕');
      expect(parsed.text).to.equal('# Hello Ada <Lovelace>\n\nYour code is **A&B**.\n\n<script>alert(1)</script>');
      expect(parsed.html).to.equal('<h1>Hello Ada &lt;Lovelace&gt;</h1>\n<p>Your code is <strong>A&amp;B</strong>.</p>\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    });
  });
}

describe('http: mail when the SMTP server fails (SQLite)', () => {
  let smtp: SmtpFixture;
  let server: TestServer;
  let drop: () => Promise<void>;
  let token: string;
  const clock = new ManualClock(Date.now());
  before(async () => {
    smtp = await startSmtpFixture();
    const opened = await sqlDatabases[0]!.open();
    drop = opened.drop;
    server = await startServer({ env: { ...opened.env, UTILITY_API_SMTP_URL: smtp.url }, overrides: { mail: { ...QUICK_DELIVERY, retryBaseMs: 60_000, retryMaxMs: 60_000 } }, clock });
    token = await server.tokenFor(['Mail::Send']);
  });
  after(async () => {
    await server.close();
    await drop();
    await smtp.close();
  });

  it('sends on the second attempt after a 451, once the back-off has passed', async () => {
    smtp.script.push({ code: 451, message: '4.3.0 Greylisted, try again later' });
    const { id, messageId } = await accepted(await send(server, token, A_MAIL));
    const deadline = Date.now() + 10_000;
    let status: StatusBody;
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await (await statusOf(server, token, id)).json()) as StatusBody;
    } while (status.attempts === 0 && Date.now() < deadline);
    expect(status).to.deep.include({ status: 'queued', attempts: 1, lastError: '451 4.3.0 Greylisted, try again later' });
    // Equal jitter: between half the wait and the whole of it.
    expect(Date.parse(status.nextAttemptAt!) - clock.now()).to.be.within(30_000, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.attempts).to.equal(1);
    clock.advance(60_000);
    expect(await eventually(server, token, id, 'sent')).to.deep.include({ attempts: 2, lastError: '451 4.3.0 Greylisted, try again later' });
    expect(smtp.messageIds().filter((each) => each === messageId)).to.have.length(1);
  });

  it('marks a message the server refuses for good (550) failed, with the reason, and sends nothing more', async () => {
    smtp.script.push({ code: 550, message: '5.1.1 No such user here' });
    const { id } = await accepted(await send(server, token, { ...A_MAIL, to: 'nobody@example.com' }));
    expect(await eventually(server, token, id, 'failed')).to.deep.include({ attempts: 1, lastError: '550 5.1.1 No such user here', sentAt: null, nextAttemptAt: null });
  });

  it('delivers every message once after the server was down for a while', async () => {
    await smtp.down();
    const before = smtp.received.length;
    const messages = await Promise.all(Array.from({ length: 6 }, (_, i) => send(server, token, { ...A_MAIL, subject: `Down ${i}` }).then(accepted)));
    for (const { id } of messages) {
      const deadline = Date.now() + 10_000;
      while (((await (await statusOf(server, token, id)).json()) as StatusBody).attempts === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const { id } of messages) expect(((await (await statusOf(server, token, id)).json()) as StatusBody).lastError).to.match(/ECONNREFUSED/);
    await smtp.up();
    clock.advance(60_000);
    for (const { id } of messages) await eventually(server, token, id, 'sent');
    expect(smtp.received.length - before).to.equal(messages.length);
    expect(smtp.messageIds().filter((each) => messages.some((message) => message.messageId === each))).to.have.members(messages.map((message) => message.messageId));
  });
});
