import { mostly, type RouteSampleTable, type SampleValues } from '../../platform/http/route-samples.js';

const uid: SampleValues = { existing: 'user', otherwise: ['nobody'] };
const tokenId: SampleValues = { existing: 'token', otherwise: ['00000000-0000-4000-8000-000000000000'] };
const permissionLists: SampleValues<unknown> = {
  existing: 'permissions',
  otherwise: [
    [],
    ['*'],
    ['Cryptography::*'],
    ['Cryptography::Encrypt'],
    ['Nope::Nothing'],
    ['Cryptography::Encrypt', 'Cryptography::Encrypt'],
  ],
};
/**
 * A password the use case accepts costs tens of milliseconds of scrypt (more on a busy machine):
 * one sampled password in 150 is one, a handful per run; the rest are refused before hashing.
 */
const password: SampleValues = {
  often: ['short', '', 'nine char', 'tab\there is ok?\u0000'],
  seldom: ['correct horse battery'],
  times: 149,
};
/** Networks a token may be bound to: loopback ones serve the fuzzer's requests, the others refuse them. */
/** Quotas as token and user routes take them: good ones often, every way of getting one wrong seldom. */
const quotas = (orNull: boolean): SampleValues<unknown> => ({
  // Large enough that no fuzz run spends them: a caller given one must go on being served.
  often: [{ requests: 1_000_000, per: 'day' }, { requests: 30_000_000, per: 'month' }, ...(orNull ? [null] : [])],
  seldom: [
    'x',
    { requests: 0, per: 'day' },
    { requests: -1, per: 'day' },
    { requests: 1.5, per: 'month' },
    { requests: 10, per: 'week' },
    { requests: 10 },
    { requests: 10, per: 'day', burst: 1 },
    ...(orNull ? [] : [null]),
  ],
});

const allowedAddresses: SampleValues<unknown> = {
  often: [['127.0.0.0/8'], ['127.0.0.1/32', '2001:db8::/32'], ['203.0.113.0/24'], ['::1/128', '127.0.0.0/8']],
  seldom: [[], ['203.0.113.7/24'], ['203.0.113.0'], ['10.0.0.0/33'], '127.0.0.0/8', [7], ['0.0.0.0/0']],
};
/** A user named by username or email instead of x-uid: taken, free, malformed. */
const namedBy = {
  username: mostly(['fuzz.user', 'ada', 'Nobody'], ['a', 'has space']),
  email: mostly(['fuzz1@example.com', 'FUZZ2@Example.com', 'nobody@example.com'], ['x']),
};
const namingWays = [['headers x-uid'], ['query username'], ['query email']];
const email = Array.from({ length: 51 }, (_, n) => `fuzz${n}@example.com`);

export const usersAndTokensSamples: RouteSampleTable = {
  'POST /user/create': {
    example: {
      body: {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.com',
        password: 'correct horse battery staple',
        username: 'ada',
      },
    },
    body: {
      firstname: ['Ada', 'Zoë', "Conan O'Brien", 'A'],
      lastname: ['Lovelace', 'Li', 'x'],
      email,
      password,
      username: ['ada', 'fuzz.user', 'a', 'Ada Lovelace'],
    },
  },
  'GET /user/get': { headers: { 'x-uid': uid }, query: namedBy, oneWayOf: namingWays },
  'PATCH /user/update': {
    example: { body: { firstname: 'Ada', lastname: 'King', displayname: 'Ada King' } },
    headers: { 'x-uid': uid },
    query: namedBy,
    oneWayOf: namingWays,
    body: {
      displayname: ['Ada L', 'Countess'],
      firstname: mostly(['Ada', 'Zoë'], ['', 'x'.repeat(101), 7]),
      lastname: mostly(['Lovelace', "O'Brien"], ['  ', null]),
      email,
      password,
      perms: permissionLists,
      // Mostly unblocking: a run that blocked its own callers would see little but 403 code 2.
      blocked: mostly([false], [true, 'true', 0, null]),
      quota: quotas(true),
    },
    // Nearly every sampled password is refused (a good one costs scrypt's time), as is an address already taken.
    rarelyGiven: ['body password', 'body email'],
  },
  'DELETE /user/delete': { headers: { 'x-uid': uid }, query: namedBy, oneWayOf: namingWays },
  'GET /user/list': {
    example: { query: { query: 'ada', limit: '20' } },
    query: {
      // Mostly well-formed, so that a listing succeeds now and then: no sample can be a real cursor,
      // so an honest request gives one seldom (rarelyGiven).
      query: mostly(['ada', 'ZOË', 'fuzz1', '%', '_', 'a*', '😀'], [' ', 'x'.repeat(321)]),
      blocked: mostly(['true', 'false'], ['yes', '1', '']),
      permission: mostly(['Cryptography::Encrypt', 'Cryptography::*', '*'], ['Nope::Nothing', 'Users::']),
      limit: mostly(['1', '20', '100'], ['0', '101', '-1', '1.5', 'ten']),
      cursor: ['bm90IGEgY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA', 'x', '', 'a.b.c'],
    },
    rarelyGiven: ['query cursor'],
  },
  'POST /token/create': {
    example: {
      body: {
        name: 'ci',
        permissions: ['Cryptography::*'],
        expiresIn: '30d',
        rateLimit: { requests: 100, perSeconds: 10 },
      },
    },
    body: {
      firebaseuid: uid,
      permissions: permissionLists,
      name: ['ci', 'deploy key', ''],
      expiresIn: ['30d', '1h', '12h', '90d', '1y', '10y', '11y', '1Y', 3600, '0d', '600w', 0, -5, 1.5, 315_360_001],
      rateLimit: [
        { requests: 100, perSeconds: 10 },
        { requests: 1, perSeconds: 1 },
        { requests: 5000, perSeconds: 1 },
        { requests: 0, perSeconds: 10 },
        { requests: 10 },
        '100/10',
      ],
      allowedAddresses,
      quota: quotas(false),
    },
  },
  'GET /token/info': { query: { id: tokenId } },
  'GET /token/list': { headers: { 'x-uid': uid } },
  'DELETE /token/delete': { query: { id: tokenId } },
  'PATCH /token/update': {
    example: { body: { name: 'ci runner' } },
    query: { id: tokenId },
    body: {
      disabled: [true, false, 'true', 0, null],
      name: ['ci', '', 'x'.repeat(101), 7],
      allowedAddresses: { often: [null, ['127.0.0.0/8'], ['203.0.113.0/24']], seldom: [[], ['bad'], 'x'] },
      quota: quotas(true),
    },
  },
  'POST /token/rotate': {
    example: { body: { graceSeconds: 86_400 } },
    query: { id: tokenId },
    body: { graceSeconds: { often: [0, 60, 86_400, 604_800], seldom: [-1, 604_801, 1.5, '60', null] } },
  },
};
