import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { Webhook } from 'standardwebhooks';
import { hears, payloadOf, verdictOf } from '../../src/families/webhooks/domain/deliver-webhooks.js';
import { checkEvents, checkUrlForm, type WebhookEndpoint } from '../../src/families/webhooks/domain/endpoint.js';
import { signatureHeaders, signingSecretsAt } from '../../src/families/webhooks/domain/signing.js';

const T0 = Date.UTC(2026, 10, 27, 2, 0, 0);
const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  ownerUserId: 'user-1',
  url: 'https://hooks.example/in',
  events: ['token.created'],
  description: null,
  scope: 'own',
  secrets: { current: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previous: null, previousUntil: null },
  disabled: false,
  failingSince: null,
  createdAt: T0,
  updatedAt: T0,
  ...overrides,
});

describe('domain: webhooks', () => {
  it('signs as Standard Webhooks does: the standardwebhooks package verifies it, with each secret that signs', () => {
    const body = JSON.stringify({
      type: 'token.created',
      timestamp: new Date().toISOString(),
      data: { name: 'Zoë ☕' },
    });
    const secrets = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'];
    const headers = signatureHeaders(secrets, 'msg_1', Date.now(), body);
    expect(headers['webhook-signature'].split(' ')).to.have.length(2);
    for (const secret of secrets)
      expect(new Webhook(secret).verify(body, { ...headers })).to.deep.include({ type: 'token.created' });
    expect(() => new Webhook('whsec_dGhpcyBpcyBub3QgdGhlIHJpZ2h0IHNlY3JldA==').verify(body, { ...headers })).to.throw();
    // The timestamp is Unix seconds.
    expect(headers['webhook-timestamp']).to.match(/^\d{10}$/);
  });

  it('signs with the rotated-out secret until its overlap ends, then with the current one alone', () => {
    const secrets = { current: 'whsec_new', previous: 'whsec_old', previousUntil: T0 + 1000 };
    expect(signingSecretsAt(secrets, T0 + 999)).to.deep.equal(['whsec_new', 'whsec_old']);
    expect(signingSecretsAt(secrets, T0 + 1000)).to.deep.equal(['whsec_new']);
  });

  it('delivers on 2xx, retries on a network failure, 408, 429 and 5xx, disables on 410, and fails any other answer', () => {
    const answered = (status: number) => verdictOf({ kind: 'answered', status, durationMs: 1 }).kind;
    expect([200, 201, 204, 299].map(answered)).to.deep.equal(['delivered', 'delivered', 'delivered', 'delivered']);
    expect([408, 429, 500, 502, 503, 599].map(answered)).to.deep.equal(Array(6).fill('retry'));
    expect([301, 302, 307, 400, 401, 403, 404, 413, 418].map(answered)).to.deep.equal(Array(9).fill('fail'));
    expect(verdictOf({ kind: 'answered', status: 410, durationMs: 1 })).to.deep.include({ disableEndpoint: true });
    expect(verdictOf({ kind: 'answered', status: 404, durationMs: 1 })).to.deep.include({ disableEndpoint: false });
    expect(verdictOf({ kind: 'failed', reason: 'ECONNRESET', durationMs: 1 })).to.deep.equal({
      kind: 'retry',
      error: 'ECONNRESET',
    });
  });

  it("hears an event when enabled, there when it happened, subscribed, and its owner's unless of scope all", () => {
    const event = { type: 'token.created' as const, concerns: 'user-1', at: T0 + 1 };
    expect(hears(endpoint(), event)).to.equal(true);
    expect(hears(endpoint({ disabled: true }), event)).to.equal(false);
    expect(hears(endpoint({ createdAt: T0 + 2 }), event)).to.equal(false);
    expect(hears(endpoint({ events: ['user.deleted'] }), event)).to.equal(false);
    expect(hears(endpoint({ events: ['*'] }), event)).to.equal(true);
    expect(hears(endpoint(), { ...event, concerns: 'user-2' })).to.equal(false);
    expect(hears(endpoint({ scope: 'all' }), { ...event, concerns: 'user-2' })).to.equal(true);
    expect(hears(endpoint({ ownerUserId: null }), { ...event, concerns: null })).to.equal(false);
    expect(hears(endpoint({ ownerUserId: null, scope: 'all' }), { ...event, concerns: null })).to.equal(true);
  });

  it('makes the body {type, timestamp, data} of an event, the same for every attempt', () => {
    const event = { id: '7', type: 'user.blocked' as const, at: T0, concerns: 'u', data: { uid: 'x', blocked: true } };
    expect(JSON.parse(payloadOf(event))).to.deep.equal({
      type: 'user.blocked',
      timestamp: '2026-11-27T02:00:00.000Z',
      data: { uid: 'x', blocked: true },
    });
  });

  it('takes event names each once, or * alone, and says what is wrong otherwise', () => {
    expect(checkEvents(['*'])).to.deep.equal(E.right(['*']));
    expect(checkEvents(['token.created', 'quota.threshold'])).to.deep.equal(
      E.right(['token.created', 'quota.threshold']),
    );
    const reasonOf = (events: string[]) => {
      const checked = checkEvents(events);
      return E.isLeft(checked) && checked.left._tag === 'InvalidInput' ? checked.left.reason : 'accepted';
    };
    expect(reasonOf([])).to.include('at least one');
    expect(reasonOf(['*', 'token.created'])).to.include('alone');
    expect(reasonOf(['token.made'])).to.include('unknown event "token.made"');
    expect(reasonOf(['webhook.test'])).to.include('unknown event');
    expect(reasonOf(['user.deleted', 'user.deleted'])).to.include('twice');
  });

  it('takes https URLs with a host, http only where allowed, and never credentials or a fragment', () => {
    const accepted = (url: string, allowHttp = false) => E.isRight(checkUrlForm(url, allowHttp));
    expect(accepted('https://hooks.example/in?x=1')).to.equal(true);
    expect(accepted('http://hooks.example/in')).to.equal(false);
    expect(accepted('http://hooks.example/in', true)).to.equal(true);
    for (const url of [
      'ftp://hooks.example/',
      'hooks.example/in',
      'https://u:p@hooks.example/',
      'https://hooks.example/#x',
      `https://hooks.example/${'a'.repeat(2000)}`,
    ])
      expect(accepted(url, true), url).to.equal(false);
  });
});
