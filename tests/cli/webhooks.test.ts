import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { startServer } from '../support/http-server.js';
import { cliOn } from './run-cli.js';

/** The CLI's webhook commands, on the database a server shares, against a loopback receiver on 127.0.0.2. */
describe('cli: webhook endpoints, as the operator manages them', () => {
  let database: TestDatabase;
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: Record<string, string>; body: string }[] = [];
  const env = () => ({
    ...database.env,
    UTILITY_API_WEBHOOKS_ALLOW_HTTP: 'true',
    UTILITY_API_OUTBOUND_ALLOWED_NETWORKS: '127.0.0.2/32',
  });

  before(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.2', resolve));
    receiverUrl = `http://127.0.0.2:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  beforeEach(async () => {
    database = await freshSqlite();
  });
  afterEach(() => database.drop());

  it('creates (secret printed once), lists, tests, rotates, updates and deletes, as the API answers', async () => {
    const cli = cliOn(env());
    const made = await cli(
      'webhook',
      'create',
      '--url',
      receiverUrl,
      '--event',
      'token.created',
      '--event',
      'mail.failed',
    );
    expect(made.status, made.stderr).to.equal(0);
    const endpoint = JSON.parse(made.stdout) as { id: string; secret: string; scope: string; events: string[] };
    expect(endpoint).to.deep.include({ scope: 'all', events: ['token.created', 'mail.failed'] });
    expect(endpoint.secret).to.match(/^whsec_/);

    const listed = await cli('webhook', 'list');
    expect(listed.stdout).not.to.include(endpoint.secret);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map(({ id }) => id)).to.deep.equal([endpoint.id]);

    const tested = await cli('webhook', 'test', endpoint.id);
    expect(JSON.parse(tested.stdout)).to.deep.include({ delivered: true, status: 204, error: null });
    const delivery = received.at(-1)!;
    expect(new Webhook(endpoint.secret).verify(delivery.body, delivery.headers)).to.deep.include({
      type: 'webhook.test',
    });

    const rotated = JSON.parse((await cli('webhook', 'rotate-secret', endpoint.id)).stdout) as { secret: string };
    expect(rotated.secret)
      .to.match(/^whsec_/)
      .and.not.equal(endpoint.secret);

    const updated = await cli('webhook', 'update', endpoint.id, '--disable', '--event', '*');
    expect(JSON.parse(updated.stdout)).to.deep.include({ disabled: true, events: ['*'] });

    // What the operator made, a user of the API does not see: it is nobody's.
    const server = await startServer({ env: database.env });
    try {
      const token = await server.tokenFor(['Webhooks::Manage']);
      const info = await server.send('GET', `/api/webhook/info?id=${endpoint.id}`, { token });
      expect(info.status).to.equal(404);
    } finally {
      await server.close();
    }

    expect(JSON.parse((await cli('webhook', 'delete', endpoint.id)).stdout)).to.deep.equal({
      deleted: true,
      id: endpoint.id,
    });
    expect(JSON.parse((await cli('webhook', 'list')).stdout)).to.deep.equal([]);
  });

  it('refuses what the API refuses, in one line naming the flag', async () => {
    const cli = cliOn(env());
    const internal = await cli('webhook', 'create', '--url', 'http://127.0.0.1:9/', '--event', '*');
    expect(internal.status).to.equal(1);
    expect(internal.stderr).to.match(/^utility-api: Invalid --url: refused to connect to 127\.0\.0\.1: loopback/);
    const unknown = await cli('webhook', 'create', '--url', receiverUrl, '--event', 'token.made');
    expect(unknown.stderr).to.match(/^utility-api: Invalid --event: unknown event "token.made"/);
    const badId = await cli('webhook', 'info', 'nope');
    expect(badId.status).to.equal(1);
    expect(badId.stderr).to.include('Invalid ID');
    const missing = await cli('webhook', 'info', '0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(missing.stderr).to.equal(
      'utility-api: Unable to retrieve requested information: No webhook endpoint 0f8fad5b-d9cb-469f-a165-70867728950e\n',
    );
  });
});
