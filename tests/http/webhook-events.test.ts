import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../support/eventually.js';
import { httpBackends, serverForSuite, type TestServer } from '../support/http-server.js';
import { SteppedClock } from '../support/manual-clock.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { hashSecret } from '../../src/families/users-and-tokens/domain/tokens/secret.js';
import { expectRight } from '../support/either.js';
import {
  signatureHeadersOf,
  startWebhookReceiver,
  type Received,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';

/**
 * Events delivered: each written with the change that causes it, handed on by the server's
 * worker to the endpoints that hear it, signed, and retried with the same webhook-id. Receivers
 * listen on 127.0.0.2, the one network the servers allow.
 */

const PUBLIC = '127.0.0.2';

interface Payload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const settings = {
  webhooks: { allowHttp: true, pollIntervalMs: 20, retryBaseMs: 50, retryMaxMs: 200, disableAfterDays: 1 },
  outbound: { allowedNetworks: [`${PUBLIC}/32`] },
  mail: { smtpUrl: 'memory', pollIntervalMs: 20 },
};

/** Every field name of a JSON value, at any depth. */
const fieldNamesOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(fieldNamesOf)
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([name, inner]) => [name, ...fieldNamesOf(inner)])
      : [];

/** The deliveries a receiver got, each verified with the secret by the standardwebhooks package. */
const verified = (received: readonly Received[], secret: string): (Payload & { webhookId: string })[] =>
  received.map((delivery) => ({
    ...(new Webhook(secret).verify(delivery.body, signatureHeadersOf(delivery)) as Payload),
    webhookId: String(delivery.headers['webhook-id']),
  }));

for (const backend of httpBackends) {
  describe(`http: webhook events delivered (${backend.name})`, () => {
    // The system's time, which the last test moves a day on.
    const clock = new SteppedClock();
    const suite = serverForSuite(backend, { overrides: settings, clock });
    let receiver: WebhookReceiver;
    before(async () => {
      receiver = await startWebhookReceiver(PUBLIC);
    });
    after(() => receiver?.close());
    /** What one path got: a test whose endpoint has a path of its own is not thrown by another test's late delivery. */
    const at = (path: string) => receiver.received.filter((delivery) => delivery.path === path);
    beforeEach(() => {
      receiver.received.length = 0;
      receiver.answers.length = 0;
      receiver.answersByPath.clear();
      receiver.status = 200;
    });

    const endpointFor = async (
      server: TestServer,
      token: string,
      json: Record<string, unknown>,
    ): Promise<{ id: string; secret: string }> => {
      // An endpoint hears what happened from the millisecond it was made on: its owner's first
      // token, made just before by userWithToken, must be older, or it is heard too.
      await new Promise((resolve) => setTimeout(resolve, 2));
      const response = await server.send('POST', '/api/webhook/create', {
        token,
        json: { url: `${receiver.url}/in`, ...json },
      });
      expect(response.status, await response.clone().text()).to.equal(201);
      return (await response.json()) as { id: string; secret: string };
    };

    it("sends the owner's token events once each, signed, with the token as token/info shows it, and nobody else's", async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      const stranger = await server.userWithToken(['Tokens::Create']);
      const endpoint = await endpointFor(server, owner.secret, {
        events: ['token.created', 'token.disabled', 'token.rotated', 'token.deleted'],
      });
      const create = await server.send('POST', '/api/token/create', { token: owner.secret, json: { name: 'ci' } });
      const { id, token: secret } = (await create.json()) as { id: string; token: string };
      await server.send('POST', '/api/token/create', { token: stranger.secret, json: {} });
      const info = await (await server.send('GET', `/api/token/info?id=${id}`, { token: owner.secret })).json();
      await server.send('PATCH', `/api/token/update?id=${id}`, { token: owner.secret, json: { disabled: true } });
      const rotation = await server.send('POST', `/api/token/rotate?id=${id}`, { token: owner.secret, json: {} });
      const rotated = (await rotation.json()) as { id: string; token: string };
      await server.send('DELETE', `/api/token/delete?id=${rotated.id}`, { token: owner.secret });

      const events = await eventually(() => {
        const all = verified(receiver.received, endpoint.secret);
        expect(all.map((event) => event.type)).to.have.members([
          'token.created',
          'token.disabled',
          'token.rotated',
          'token.deleted',
        ]);
        return all;
      });
      const byType = new Map(events.map((event) => [event.type, event]));
      expect(byType.get('token.created')!.data).to.deep.equal(info);
      expect(byType.get('token.disabled')!.data).to.deep.include({ id, disabled: true });
      expect(byType.get('token.rotated')!.data).to.deep.include({ id: rotated.id, rotatedFrom: id });
      expect(byType.get('token.deleted')!.data).to.deep.include({ id: rotated.id });
      // Matched against the names, not the whole text: a random id or licence spells "hash" now and then.
      const secrets = [secret, rotated.token].flatMap((each) => [each, hashSecret(each)]);
      for (const event of events) {
        for (const each of secrets) expect(JSON.stringify(event.data), event.type).not.to.include(each);
        expect(
          fieldNamesOf(event.data).filter((name) => /secret|hash/i.test(name)),
          event.type,
        ).to.deep.equal([]);
        expect(Math.abs(Date.parse(event.timestamp) - Date.now())).to.be.below(60_000);
      }
      expect(new Set(events.map((event) => event.webhookId)).size).to.equal(4);
      expect(receiver.received.every((delivery) => delivery.path === '/in')).to.equal(true);
    });

    it('sends every user event to an endpoint of scope "all", with the user as user/get shows them', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(['Webhooks::*', 'Users::*']);
      const endpoint = await endpointFor(server, admin.secret, {
        events: ['user.blocked', 'user.unblocked', 'user.deleted'],
        scope: 'all',
      });
      const someone = await server.userWithToken([]);
      const update = (json: Record<string, unknown>) =>
        server.send('PATCH', `/api/user/update?username=${someone.username}`, { token: admin.secret, json });
      const blockedAnswer = await update({ blocked: true });
      expect(blockedAnswer.status, await blockedAnswer.clone().text()).to.equal(200);
      await update({ blocked: false });
      const shown = await (
        await server.send('GET', `/api/user/get?username=${someone.username}`, { token: admin.secret })
      ).json();
      await server.send('DELETE', `/api/user/delete?username=${someone.username}`, { token: admin.secret });
      const events = await eventually(() => {
        const all = verified(receiver.received, endpoint.secret);
        expect(all.map((event) => event.type)).to.have.members(['user.blocked', 'user.unblocked', 'user.deleted']);
        return all;
      });
      const blocked = events.find((event) => event.type === 'user.blocked')!;
      expect(blocked.data).to.deep.include({ uid: someone.uid, blocked: true });
      expect(events.find((event) => event.type === 'user.deleted')!.data).to.deep.equal(shown);
    });

    it("sends mail.delivered, written with the outbox's outcome, with the message as mail/status shows it", async () => {
      const server = suite.server;
      const sender = await server.userWithToken(['Webhooks::Manage', 'Mail::Send']);
      const endpoint = await endpointFor(server, sender.secret, { events: ['mail.delivered', 'mail.failed'] });
      const sent = await server.send('POST', '/api/mail/send', {
        token: sender.secret,
        json: { to: 'ada@example.com', subject: 'Hello', content: 'Hi **Ada**' },
      });
      const { id } = (await sent.json()) as { id: string };
      const [event] = await eventually(() => {
        const all = verified(receiver.received, endpoint.secret);
        expect(all.map((one) => one.type)).to.deep.equal(['mail.delivered']);
        return all;
      });
      const status = await (await server.send('GET', `/api/mail/status?id=${id}`, { token: sender.secret })).json();
      expect(event!.data).to.deep.equal(status);
      expect(event!.data).to.deep.include({ status: 'sent' });
    });

    it('announces token.expiring a week before and a day before, once each, with the token as token/info shows it', async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      const endpoint = await endpointFor(server, owner.secret, { events: ['token.expiring'] });
      const create = async (expiresIn: string) =>
        (
          (await (
            await server.send('POST', '/api/token/create', { token: owner.secret, json: { expiresIn } })
          ).json()) as {
            id: string;
          }
        ).id;
      const inDays = await create('3d');
      const inHours = await create('12h');
      await create('30d');
      const events = await eventually(() => {
        const all = verified(receiver.received, endpoint.secret);
        expect(all).to.have.length(2);
        return all;
      });
      const byToken = new Map(events.map((event) => [event.data.id, event]));
      const week = byToken.get(inDays)!;
      expect(week.type).to.equal('token.expiring');
      const info = await (await server.send('GET', `/api/token/info?id=${inDays}`, { token: owner.secret })).json();
      expect(week.data).to.deep.equal({ ...(info as object), noticeDays: 7 });
      expect(byToken.get(inHours)!.data).to.deep.include({ noticeDays: 1 });
      // Every instance looks again and again (every 60 polls): the log keeps one notice each.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received).to.have.length(2);
    });

    it("announces quota.threshold at 80 % and 100 % of a token's quota, once each in its period", async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      const endpoint = await endpointFor(server, owner.secret, { events: ['quota.threshold'] });
      const created = await server.send('POST', '/api/token/create', {
        token: owner.secret,
        json: { quota: { requests: 5, per: 'day' }, permissions: ['Webhooks::Manage'] },
      });
      const { id, token: limited } = (await created.json()) as { id: string; token: string };
      const statuses = [];
      for (let n = 0; n < 7; n += 1)
        statuses.push((await server.send('GET', '/api/webhook/list', { token: limited })).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
      const events = await eventually(() => {
        const all = verified(receiver.received, endpoint.secret);
        expect(all).to.have.length(2);
        return all;
      });
      expect(events.map((event) => event.data.percent).sort()).to.deep.equal([100, 80]);
      const eighty = events.find((event) => event.data.percent === 80)!;
      expect(eighty.type).to.equal('quota.threshold');
      expect(eighty.data).to.deep.include({ scope: 'token', id, quota: { requests: 5, per: 'day' }, used: 4 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).to.have.length(2);
    });

    it('sends nothing more to an endpoint whose owner lost Webhooks::All (scope all) or was blocked', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(['Users::*', 'Webhooks::*', 'Tokens::*']);
      const watcher = await server.userWithToken(['Webhooks::Manage', 'Webhooks::All']);
      const someone = await server.userWithToken([]);
      const endpoint = await endpointFor(server, watcher.secret, { events: ['token.created'], scope: 'all' });
      const issue = () =>
        server.app.useCases.usersAndTokens.issueToken.execute({
          actor: OPERATOR,
          owner: { username: someone.username },
        });
      expectRight(await issue());
      // What the watcher's endpoint got (the suite's other endpoints hear the block, as user.blocked).
      const heard = () =>
        receiver.received.filter((delivery) => delivery.path === '/in' && delivery.body.includes('"token.created"'));
      await eventually(() => expect(heard()).to.have.length(1));
      expect(verified(heard(), endpoint.secret)[0]!.data).to.deep.include({ username: someone.username });
      const demoted = await server.send('PATCH', `/api/user/update?username=${watcher.username}`, {
        token: admin.secret,
        json: { perms: ['Webhooks::Manage'] },
      });
      expect(demoted.status, await demoted.clone().text()).to.equal(200);
      expectRight(await issue());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard()).to.have.length(1);
      // Webhooks::All again, then blocked: nothing either.
      await server.send('PATCH', `/api/user/update?username=${watcher.username}`, {
        token: admin.secret,
        json: { perms: ['Webhooks::Manage', 'Webhooks::All'] },
      });
      expectRight(await issue());
      await eventually(() => expect(heard()).to.have.length(2));
      const blocked = await server.send('PATCH', `/api/user/update?username=${watcher.username}`, {
        token: admin.secret,
        json: { blocked: true },
      });
      expect(blocked.status, await blocked.clone().text()).to.equal(200);
      expectRight(await issue());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard()).to.have.length(2);
    });

    it('retries a receiver that answers 500 and 429, then 200, keeping the webhook-id; each attempt signed', async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      const endpoint = await endpointFor(server, owner.secret, {
        events: ['token.created'],
        url: `${receiver.url}/retrying`,
      });
      receiver.answersByPath.set('/retrying', [500, 429, 503]);
      await server.send('POST', '/api/token/create', { token: owner.secret, json: {} });
      await eventually(() => expect(at('/retrying')).to.have.length(4));
      const events = verified(at('/retrying'), endpoint.secret);
      expect(new Set(events.map((event) => event.webhookId)).size).to.equal(1);
      expect(new Set(at('/retrying').map((delivery) => delivery.body)).size).to.equal(1);
      // Delivered: no further attempt.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(at('/retrying')).to.have.length(4);
    });

    it('lists deliveries with every attempt, pages them, and queues one again with the same webhook-id', async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      const endpoint = await endpointFor(server, owner.secret, {
        events: ['token.created'],
        url: `${receiver.url}/listed`,
      });
      receiver.answersByPath.set('/listed', [500, 404]);
      await server.send('POST', '/api/token/create', { token: owner.secret, json: { name: 'first' } });
      await eventually(() => expect(at('/listed')).to.have.length(2));
      await server.send('POST', '/api/token/create', { token: owner.secret, json: { name: 'second' } });
      await eventually(() => expect(at('/listed')).to.have.length(3));
      type Page = {
        deliveries: {
          id: string;
          event: { id: string; type: string };
          status: string;
          attempts: { at: string; status: number | null; error: string | null; durationMs: number }[];
          nextAttemptAt: string | null;
          lastError: string | null;
        }[];
        nextCursor: string | null;
      };
      const page = async (query: string, token = owner.secret): Promise<Page> => {
        const response = await server.send('GET', `/api/webhook/deliveries?id=${endpoint.id}${query}`, { token });
        expect(response.status, await response.clone().text()).to.equal(200);
        return (await response.json()) as Page;
      };
      const all = await eventually(async () => {
        const listed = await page('');
        expect(listed.deliveries.map((delivery) => delivery.status)).to.deep.equal(['delivered', 'failed']);
        return listed;
      });
      const [second, first] = all.deliveries;
      expect(first!.attempts.map((attempt) => attempt.status)).to.deep.equal([500, 404]);
      expect(first).to.deep.include({ nextAttemptAt: null, lastError: 'answered 404', event: first!.event });
      expect(first!.event.type).to.equal('token.created');
      expect(first!.id).to.equal(at('/listed')[0]!.headers['webhook-id']);
      expect(second!.attempts.map((attempt) => attempt.status)).to.deep.equal([200]);
      const one = await page('&limit=1');
      expect(one.deliveries.map((delivery) => delivery.id)).to.deep.equal([second!.id]);
      const rest = await page(`&limit=1&cursor=${one.nextCursor}`);
      expect(rest).to.deep.equal({ deliveries: [first], nextCursor: null });
      expect((await page('&status=failed')).deliveries.map((delivery) => delivery.id)).to.deep.equal([first!.id]);

      const redeliver = await server.send('POST', `/api/webhook/redeliver?id=${endpoint.id}&delivery=${first!.id}`, {
        token: owner.secret,
      });
      expect(redeliver.status).to.equal(202);
      expect(await redeliver.json()).to.deep.equal({ id: first!.id, status: 'queued' });
      await eventually(() => expect(at('/listed')).to.have.length(4));
      expect(at('/listed')[3]!.headers['webhook-id']).to.equal(first!.id);
      expect(verified([at('/listed')[3]!], endpoint.secret)[0]!.type).to.equal('token.created');
      await eventually(async () =>
        expect((await page('')).deliveries[1]!.attempts.map((attempt) => attempt.status)).to.deep.equal([
          500, 404, 200,
        ]),
      );

      const stranger = await server.userWithToken(['Webhooks::Manage']);
      const strangers = await server.send('GET', `/api/webhook/deliveries?id=${endpoint.id}`, {
        token: stranger.secret,
      });
      expect(strangers.status).to.equal(404);
      const unknown = await server.send(
        'POST',
        `/api/webhook/redeliver?id=${endpoint.id}&delivery=msg_0f8fad5b-d9cb-469f-a165-70867728950e`,
        { token: owner.secret },
      );
      expect(unknown.status).to.equal(404);
    });

    it('disables an endpoint that answers 410, and fails without retrying a delivery answered 404', async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      // Paths of their own: a late delivery of an earlier test's endpoint neither counts here nor takes their answers.
      const gone = await endpointFor(server, owner.secret, { events: ['token.created'], url: `${receiver.url}/gone` });
      receiver.answersByPath.set('/gone', [410]);
      await server.send('POST', '/api/token/create', { token: owner.secret, json: {} });
      await eventually(async () => {
        const info = await server.send('GET', `/api/webhook/info?id=${gone.id}`, { token: owner.secret });
        expect(await info.json()).to.deep.include({ disabled: true });
      });
      expect(at('/gone')).to.have.length(1);

      const other = await server.userWithToken(['Webhooks::Manage', 'Tokens::Create']);
      await endpointFor(server, other.secret, { events: ['token.created'], url: `${receiver.url}/refusing` });
      receiver.answersByPath.set('/refusing', [404]);
      await server.send('POST', '/api/token/create', { token: other.secret, json: {} });
      await eventually(() => expect(at('/refusing')).to.have.length(1));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(at('/refusing')).to.have.length(1);
      expect(at('/gone'), 'nothing more to the disabled endpoint').to.have.length(1);
    });

    // Last: it moves the server's clock a day on.
    it('disables an endpoint that has failed every attempt for webhooks.disableAfterDays, and mails its owner', async () => {
      const server = suite.server;
      const { createUser, issueToken } = server.app.useCases.usersAndTokens;
      const username = `failing${backend.name.length}${Date.now() % 100000}`;
      expectRight(
        await createUser.execute({
          actor: OPERATOR,
          username,
          email: `${username}@example.com`,
          permissions: ['Webhooks::Manage', 'Tokens::Create'],
        }),
      );
      const { secret } = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username } }));
      const endpoint = await endpointFor(server, secret, { events: ['token.created'] });
      receiver.status = 500;
      await server.send('POST', '/api/token/create', { token: secret, json: {} });
      await eventually(() => expect(receiver.received.length).to.be.at.least(2));
      const info = async () =>
        (await (await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token: secret })).json()) as {
          disabled: boolean;
        };
      expect((await info()).disabled).to.equal(false);
      clock.advance(25 * 60 * 60 * 1000);
      await eventually(async () => expect((await info()).disabled).to.equal(true));
      const { messageReader } = server.app.useCases.mail;
      const mailed = await eventually(async () => {
        const messages = expectRight(await messageReader.list(OPERATOR, { limit: 100 }));
        const found = messages.find((message) => message.to.includes(`${username}@example.com`));
        expect(found).to.not.equal(undefined);
        return found!;
      });
      expect(mailed.subject).to.equal('Your webhook endpoint was disabled');
      expect(mailed.variables).to.deep.include({ endpointId: endpoint.id, endpointUrl: `${receiver.url}/in` });
      const attempts = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received.length).to.equal(attempts);
    });
  });
}
