import { expect } from 'chai';
import { retryAfterSecondsOf, standingsOf } from '../../src/client/answers.js';

/** How the client reads the fields of an answer that decide what it reports and when it retries. */
describe('client: reading RateLimit and Retry-After', () => {
  const headers = (fields: Record<string, string>) => new Headers(fields);

  it('reads one policy, or a rate limit and a quota in either order, each matched to its policy by name', () => {
    expect(
      standingsOf(headers({ 'RateLimit-Policy': '"default";q=1000;w=10', RateLimit: '"default";r=998;t=7' })),
    ).to.deep.equal({
      rateLimit: { policy: 'default', limit: 1000, windowSeconds: 10, remaining: 998, resetSeconds: 7 },
    });
    expect(
      standingsOf(
        headers({
          'RateLimit-Policy': '"quota";q=5000;w=86400, "token";q=60;w=60',
          RateLimit: '"token";r=59;t=60, "quota";r=4321;t=3600',
        }),
      ),
    ).to.deep.equal({
      rateLimit: { policy: 'token', limit: 60, windowSeconds: 60, remaining: 59, resetSeconds: 60 },
      quota: { policy: 'quota', limit: 5000, windowSeconds: 86_400, remaining: 4321, resetSeconds: 3600 },
    });
  });

  it('leaves out what it cannot read rather than guess: no fields, an item of another form, a standing of no policy', () => {
    expect(standingsOf(headers({}))).to.deep.equal({});
    expect(
      standingsOf(headers({ 'RateLimit-Policy': '"default";q=1000;w=10', RateLimit: 'default;r=998;t=7' })),
    ).to.deep.equal({});
    expect(standingsOf(headers({ RateLimit: '"default";r=998;t=7' }))).to.deep.equal({});
    expect(
      standingsOf(headers({ 'RateLimit-Policy': '"default";q=1000;w=10', RateLimit: '"other";r=1;t=1' })),
    ).to.deep.equal({});
  });

  it('reads Retry-After as whole seconds or as an HTTP date from now, and nothing else', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0);
    expect(retryAfterSecondsOf(headers({ 'Retry-After': '5' }), now)).to.equal(5);
    expect(retryAfterSecondsOf(headers({ 'Retry-After': '0' }), now)).to.equal(0);
    expect(retryAfterSecondsOf(headers({ 'Retry-After': 'Fri, 27 Nov 2026 12:00:30 GMT' }), now)).to.equal(30);
    expect(retryAfterSecondsOf(headers({ 'Retry-After': 'Fri, 27 Nov 2026 11:00:00 GMT' }), now)).to.equal(0);
    expect(retryAfterSecondsOf(headers({ 'Retry-After': 'soon' }), now)).to.equal(undefined);
    expect(retryAfterSecondsOf(headers({ 'Retry-After': '-1' }), now)).to.equal(undefined);
    expect(retryAfterSecondsOf(headers({}), now)).to.equal(undefined);
  });
});
