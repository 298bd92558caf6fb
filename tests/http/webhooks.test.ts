import { expect } from 'chai';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { startDnsFixture, type DnsFixture } from '../support/dns-fixture.js';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { SteppedClock } from '../support/manual-clock.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import {
  signatureHeadersOf,
  startWebhookReceiver as startReceiver,
  type WebhookReceiver as Receiver,
} from '../support/webhook-receiver.js';

/**
 * Webhook endpoints against loopback receivers. The "public" internet is 127.0.0.2, the one
 * network the server allows (outbound.allowedNetworks); 127.0.0.1 stands for the internal
 * services a URL must never reach. Every delivery is verified with the standardwebhooks package.
 */

const PUBLIC = '127.0.0.2';
const HOUR = 3_600_000;

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  scope: string;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
  previousSecretUntil: string | null;
  secret?: string;
}

interface TestOutcome {
  webhookId: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

describe('http: webhook endpoints (loopback receivers, SQLite)', () => {
  let database: TestDatabase;
  let dns: DnsFixture;
  let server: TestServer;
  let receiver: Receiver;
  let internal: Receiver;
  const clock = new SteppedClock();

  before(async () => {
    receiver = await startReceiver(PUBLIC);
    internal = await startReceiver('127.0.0.1');
    dns = await startDnsFixture({
      'hooks.example.test': { A: [PUBLIC] },
      'internal.example.test': { A: ['127.0.0.1'] },
    });
    database = await freshSqlite();
    server = await startServer({
      env: database.env,
      clock,
      overrides: {
        webhooks: { allowHttp: true, dnsServers: [dns.server], worker: false },
        outbound: { allowedNetworks: [`${PUBLIC}/32`] },
      },
    });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
    await dns?.close();
    await receiver?.close();
    await internal?.close();
  });
  beforeEach(() => {
    receiver.status = 200;
    receiver.answers.length = 0;
    receiver.location = undefined;
    receiver.received.length = 0;
    internal.received.length = 0;
  });

  const create = (token: string, json: Record<string, unknown>) =>
    server.send('POST', '/api/webhook/create', { token, json });
  const created = async (token: string, json: Record<string, unknown> = {}): Promise<Endpoint> => {
    const response = await create(token, { url: `${receiver.url}/hooks`, events: ['token.created'], ...json });
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as Endpoint;
  };
  const sendTest = async (token: string, id: string): Promise<TestOutcome> => {
    const response = await server.send('POST', `/api/webhook/test?id=${id}`, { token });
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as TestOutcome;
  };

  it('creates an endpoint (201, its secret shown once), lists it, shows it and deletes it, never showing the secret again', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const endpoint = await created(token, {
      description: '  Zoë’s alerts ☕ ',
      events: ['token.created', 'mail.failed'],
    });
    expect(endpoint.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret!.slice('whsec_'.length), 'base64')).to.have.length(32);
    const { secret, ...view } = endpoint;
    expect(view).to.deep.include({
      url: `${receiver.url}/hooks`,
      events: ['token.created', 'mail.failed'],
      description: 'Zoë’s alerts ☕',
      scope: 'own',
      disabled: false,
      previousSecretUntil: null,
    });
    expect(secret).to.be.a('string');
    const list = await server.send('GET', '/api/webhook/list', { token });
    expect(await list.json()).to.deep.equal([view]);
    const info = await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token });
    expect(await info.json()).to.deep.equal(view);
    expect(JSON.stringify(await (await server.send('GET', '/api/webhook/list', { token })).json())).not.to.include(
      secret,
    );

    const deleted = await server.send('DELETE', `/api/webhook/delete?id=${endpoint.id}`, { token });
    expect(await deleted.json()).to.deep.equal({ deleted: true, id: endpoint.id });
    await expectError(await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token }), 404, 22);
    await expectError(await server.send('DELETE', `/api/webhook/delete?id=${endpoint.id}`, { token }), 404, 22);
  });

  it("answers 404 code 22 for another user's endpoint on every route, as for an unknown one, and changes nothing", async () => {
    const { secret: owner } = await server.userWithToken(['Webhooks::Manage']);
    const { secret: other } = await server.userWithToken(['Webhooks::*']);
    const endpoint = await created(owner);
    const unknown = '0f8fad5b-d9cb-469f-a165-70867728950e';
    for (const id of [endpoint.id, unknown]) {
      const bodies = [];
      bodies.push(await expectError(await server.send('GET', `/api/webhook/info?id=${id}`, { token: other }), 404, 22));
      bodies.push(
        await expectError(
          await server.send('PATCH', `/api/webhook/update?id=${id}`, { token: other, json: { disabled: true } }),
          404,
          22,
        ),
      );
      bodies.push(
        await expectError(await server.send('DELETE', `/api/webhook/delete?id=${id}`, { token: other }), 404, 22),
      );
      bodies.push(
        await expectError(await server.send('POST', `/api/webhook/rotate-secret?id=${id}`, { token: other }), 404, 22),
      );
      bodies.push(
        await expectError(await server.send('POST', `/api/webhook/test?id=${id}`, { token: other }), 404, 22),
      );
      for (const body of bodies) expect(body.details).to.equal(`No webhook endpoint ${id}`);
    }
    expect(await (await server.send('GET', '/api/webhook/list', { token: other })).json()).to.deep.equal([]);
    const { secret: _, ...view } = endpoint;
    expect(
      await (await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token: owner })).json(),
    ).to.deep.equal(view);
    expect(receiver.received).to.deep.equal([]);
  });

  it('needs Webhooks::Manage (403 code 1), and Webhooks::All for scope "all"', async () => {
    const { secret: none } = await server.userWithToken(['Cryptography::*']);
    await expectError(await create(none, { url: `${receiver.url}/`, events: ['*'] }), 403, 1);
    await expectError(await server.send('GET', '/api/webhook/list', { token: none }), 403, 1);
    const { secret: manager } = await server.userWithToken(['Webhooks::Manage']);
    await expectError(await create(manager, { url: `${receiver.url}/`, events: ['*'], scope: 'all' }), 403, 1);
    const { secret: all } = await server.userWithToken(['Webhooks::Manage', 'Webhooks::All']);
    expect((await created(all, { events: ['*'], scope: 'all' })).scope).to.equal('all');
  });

  it('refuses events, descriptions and URLs that break a rule with 400 code 11, storing nothing', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const url = `${receiver.url}/`;
    const refusals: [Record<string, unknown>, string][] = [
      [{ url, events: [] }, 'at least one event'],
      [{ url, events: ['token.made'] }, 'unknown event "token.made"'],
      [{ url, events: ['*', 'token.created'] }, 'comes alone'],
      [{ url, events: ['user.deleted', 'user.deleted'] }, 'named twice'],
      [{ url, events: 'token.created' }, ''],
      [{ url, events: ['webhook.test'] }, 'unknown event'],
      [{ url: 'not a url', events: ['*'] }, ''],
      [{ url: 'notaurl', events: ['*'] }, 'absolute URL'],
      [{ url: 'ftp://hooks.example.test/', events: ['*'] }, 'https: or http:'],
      [{ url: `http://user:pw@${PUBLIC}/`, events: ['*'] }, 'credentials'],
      [{ url: `${url}#part`, events: ['*'] }, 'fragment'],
      [{ url: 'https://nowhere.example.test/', events: ['*'] }, 'does not resolve'],
      // The length is the domain's rule, not the field's pattern (a pattern's bound counts differently with and without the u flag).
      [{ url: `${url}${'a'.repeat(2001 - url.length)}`, events: ['*'] }, 'at most 2000 characters'],
      [{ url, events: ['*'], description: 'x'.repeat(501) }, ''],
      [{ url, events: ['*'], scope: 'everyone' }, ''],
    ];
    for (const [json, reason] of refusals) {
      const body = await expectError(await create(token, json), 400, 11);
      expect(body.details ?? '', JSON.stringify(json)).to.include(reason);
    }
    expect(await (await server.send('GET', '/api/webhook/list', { token })).json()).to.deep.equal([]);
  });

  it('refuses URLs leading to loopback, private, link-local and metadata addresses (400 code 11), by address or by name', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const port = new URL(internal.url).port;
    const refused: [string, string][] = [
      [`http://127.1:${port}/`, 'loopback'],
      [`http://127.0.0.1:${port}/`, 'loopback'],
      [`http://[::1]:${port}/`, 'loopback'],
      [`http://[::ffff:127.0.0.1]:${port}/`, 'loopback'],
      ['https://10.0.0.1/', 'private'],
      ['https://192.168.1.10/', 'private'],
      ['https://169.254.169.254/latest/meta-data/', 'a cloud metadata service'],
      ['https://[fd00::1]/', 'unique-local'],
      ['https://224.0.0.1/', 'multicast'],
      [`http://internal.example.test:${port}/`, 'internal.example.test (127.0.0.1): loopback'],
    ];
    for (const [url, why] of refused) {
      const body = await expectError(await create(token, { url, events: ['*'] }), 400, 11);
      expect(body.details, url).to.include(why);
    }
    // An update is checked as a creation is.
    const endpoint = await created(token);
    const body = await expectError(
      await server.send('PATCH', `/api/webhook/update?id=${endpoint.id}`, {
        token,
        json: { url: `http://internal.example.test:${port}/` },
      }),
      400,
      11,
    );
    expect(body.details).to.include('loopback');
    expect((await (await server.send('GET', '/api/webhook/list', { token })).json()) as Endpoint[]).to.have.length(1);
    expect(internal.received).to.deep.equal([]);
  });

  it('sends webhook.test now, signed by the Standard Webhooks scheme, and answers the attempt (status, duration)', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const endpoint = await created(token, { url: `http://hooks.example.test:${new URL(receiver.url).port}/in?x=1` });
    const outcome = await sendTest(token, endpoint.id);
    expect(outcome).to.deep.include({ delivered: true, status: 200, error: null });
    expect(outcome.durationMs).to.be.a('number').and.at.least(0);
    expect(receiver.received).to.have.length(1);
    const [delivery] = receiver.received;
    expect(delivery!.method).to.equal('POST');
    expect(delivery!.path).to.equal('/in?x=1');
    expect(delivery!.headers['content-type']).to.equal('application/json');
    expect(delivery!.headers['webhook-id']).to.equal(outcome.webhookId);
    const payload = new Webhook(endpoint.secret!).verify(delivery!.body, signatureHeadersOf(delivery!)) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(payload).to.deep.equal({
      type: 'webhook.test',
      timestamp: payload.timestamp,
      data: { endpointId: endpoint.id, url: endpoint.url },
    });
    expect(Math.abs(Date.parse(payload.timestamp) - Date.now())).to.be.below(60_000);
    // Another secret does not verify it: the signature is the endpoint's.
    const stranger = await created(token);
    expect(() => new Webhook(stranger.secret!).verify(delivery!.body, signatureHeadersOf(delivery!))).to.throw(
      WebhookVerificationError,
    );
  });

  it("answers the receiver's failure as it was (500), and a redirect as an answer, never following it", async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const endpoint = await created(token);
    receiver.status = 500;
    expect(await sendTest(token, endpoint.id)).to.deep.include({ delivered: false, status: 500, error: null });
    receiver.status = 302;
    receiver.location = `${internal.url}/steal`;
    expect(await sendTest(token, endpoint.id)).to.deep.include({ delivered: false, status: 302, error: null });
    expect(receiver.received).to.have.length(2);
    expect(internal.received).to.deep.equal([]);
  });

  it('answers a receiver that does not listen with why, not delivered', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const gone = await startReceiver(PUBLIC);
    const endpoint = await created(token, { url: `${gone.url}/` });
    await gone.close();
    const outcome = await sendTest(token, endpoint.id);
    expect(outcome).to.deep.include({ delivered: false, status: null });
    expect(outcome.error).to.include('ECONNREFUSED');
  });

  it('rotates the secret: both sign for 24 hours, then only the new one', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const endpoint = await created(token);
    const rotation = await server.send('POST', `/api/webhook/rotate-secret?id=${endpoint.id}`, { token });
    expect(rotation.status).to.equal(201);
    const rotated = (await rotation.json()) as { id: string; secret: string; previousSecretUntil: string };
    expect(rotated.id).to.equal(endpoint.id);
    expect(rotated.secret)
      .to.match(/^whsec_/)
      .and.not.equal(endpoint.secret);
    expect(Date.parse(rotated.previousSecretUntil) - clock.now()).to.be.within(24 * HOUR - 60_000, 24 * HOUR);
    const info = (await (
      await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token })
    ).json()) as Endpoint;
    expect(info.previousSecretUntil).to.equal(rotated.previousSecretUntil);

    await sendTest(token, endpoint.id);
    const [during] = receiver.received;
    expect(String(during!.headers['webhook-signature']).split(' ')).to.have.length(2);
    for (const secret of [endpoint.secret!, rotated.secret])
      expect(new Webhook(secret).verify(during!.body, signatureHeadersOf(during!))).to.be.an('object');

    // A rotation made 25 hours ago (the server's clock set back for it): its overlap is over now.
    const again = await created(token);
    clock.advance(-25 * HOUR);
    const old = (await (await server.send('POST', `/api/webhook/rotate-secret?id=${again.id}`, { token })).json()) as {
      secret: string;
    };
    clock.advance(25 * HOUR);
    await sendTest(token, again.id);
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).to.have.length(1);
    expect(new Webhook(old.secret).verify(after.body, signatureHeadersOf(after))).to.be.an('object');
    expect(() => new Webhook(again.secret!).verify(after.body, signatureHeadersOf(after))).to.throw(
      WebhookVerificationError,
      'No matching signature found',
    );
    const view = (await (await server.send('GET', `/api/webhook/info?id=${again.id}`, { token })).json()) as Endpoint;
    expect(view.previousSecretUntil).to.equal(null);
  });

  it('updates url, events, description and disabled, and says when there is nothing to change', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const endpoint = await created(token, { description: 'first' });
    const update = (json: Record<string, unknown>) =>
      server.send('PATCH', `/api/webhook/update?id=${endpoint.id}`, { token, json });
    const url = `http://hooks.example.test:${new URL(receiver.url).port}/moved`;
    const response = await update({ url, events: ['*'], description: null, disabled: true });
    expect(response.status).to.equal(200);
    const changed = (await response.json()) as Endpoint;
    expect(changed).to.deep.include({ url, events: ['*'], description: null, disabled: true });
    expect(await (await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token })).json()).to.deep.equal(
      changed,
    );
    await expectError(await update({}), 400, 11);
    await expectError(await update({ events: ['nope'] }), 400, 11);
    await expectError(await update({ secret: 'whsec_mine' }), 400, 11);
    await expectError(
      await server.send('PATCH', '/api/webhook/update?id=nope', { token, json: { disabled: false } }),
      400,
      7,
    );
  });

  it('checks again at every connection: an endpoint stored where another instance allowed it is refused by one that does not', async () => {
    const { secret: token } = await server.userWithToken(['Webhooks::Manage']);
    const endpoint = await created(token);
    const strict = await startServer({
      env: database.env,
      overrides: { webhooks: { allowHttp: true, worker: false } },
    });
    try {
      const response = await strict.send('POST', `/api/webhook/test?id=${endpoint.id}`, { token });
      const outcome = (await response.json()) as TestOutcome;
      expect(outcome).to.deep.include({ delivered: false, status: null });
      expect(outcome.error).to.include(`${PUBLIC}`).and.include('loopback');
      expect(receiver.received).to.deep.equal([]);
    } finally {
      await strict.close();
    }
  });
});

describe('http: webhook URLs where the operator allows neither http: nor any internal network', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.close());

  it('refuses http: URLs, localhost and the internal addresses of the issue, 400 code 11', async () => {
    const token = await server.tokenFor(['Webhooks::Manage']);
    const cases: [string, string][] = [
      ['http://hooks.example.com/', 'must be https:'],
      ['https://localhost/', 'loopback'],
      ['https://127.1/', 'loopback'],
      ['https://[::1]/', 'loopback'],
      ['https://10.0.0.1/', 'private'],
      ['https://169.254.169.254/', 'a cloud metadata service'],
    ];
    for (const [url, why] of cases) {
      const body = await expectError(
        await server.send('POST', '/api/webhook/create', { token, json: { url, events: ['*'] } }),
        400,
        11,
      );
      expect(body.details, url).to.include(why);
    }
  });
});
