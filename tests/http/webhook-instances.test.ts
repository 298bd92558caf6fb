import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { freshPostgres, POSTGRES_URL, type TestDatabase } from '../support/databases.js';
import { expectRight } from '../support/either.js';
import { eventually } from '../support/eventually.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 27's proof of the queue: two instances on one PostgreSQL database, each with its worker,
 * hand on and deliver 1,000 events between them, each once (FOR UPDATE SKIP LOCKED claims; one
 * delivery per event and endpoint however many instances hand an event on).
 */
const EVENTS = 1000;

(POSTGRES_URL ? describe : describe.skip)(
  'http: two instances deliver 1,000 events once each (PostgreSQL)',
  function () {
    // Beyond mocha's 60 s: 1,000 events took longer in CI on a machine twice as slow as usual.
    this.timeout(240_000);
    let database: TestDatabase;
    let one: TestServer;
    let other: TestServer;
    let receiver: WebhookReceiver;

    before(async () => {
      receiver = await startWebhookReceiver('127.0.0.2');
      database = await freshPostgres();
      const options = {
        env: database.env,
        overrides: {
          webhooks: { allowHttp: true, pollIntervalMs: 20 },
          outbound: { allowedNetworks: ['127.0.0.2/32'] },
          auth: { maxTokensPerUser: EVENTS + 10 },
          // 50 tokens issued at once wait for the pool's connections: on a loaded machine, more than
          // the default 2 s deadline (twice in CI-like runs), which is what this test does not measure.
          database: { timeoutMs: 15_000 },
        },
      };
      one = await startServer(options);
      other = await startServer(options);
    });
    after(async () => {
      await one?.close();
      await other?.close();
      await database?.drop();
      await receiver?.close();
    });

    it('each event reaches the endpoint exactly once, whichever instance handed it on and delivered it', async () => {
      const admin = await one.userWithToken(['Webhooks::*']);
      const owner = await one.userWithToken([]);
      const created = await one.send('POST', '/api/webhook/create', {
        token: admin.secret,
        json: { url: `${receiver.url}/all`, events: ['token.created'], scope: 'all' },
      });
      expect(created.status).to.equal(201);
      const { issueToken } = one.app.useCases.usersAndTokens;
      for (let batch = 0; batch < EVENTS / 50; batch += 1)
        await Promise.all(
          Array.from({ length: 50 }, async () =>
            expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username: owner.username } })),
          ),
        );
      await eventually(() => expect(receiver.received.length).to.be.at.least(EVENTS), { timeoutMs: 180_000 });
      // A moment for any second delivery of an event to arrive, were there one.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ids = receiver.received.map((delivery) => String(delivery.headers['webhook-id']));
      expect(new Set(ids).size).to.equal(EVENTS);
      expect(ids).to.have.length(EVENTS);
      const tokens = receiver.received.map(
        (delivery) => (JSON.parse(delivery.body) as { data: { id: string } }).data.id,
      );
      expect(new Set(tokens).size).to.equal(EVENTS);
    });
  },
);
