import type { ServerResponse } from 'node:http';
import type { RateLimitStanding } from '../pipeline/ports.js';

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers, the structured-field syntax of
 * its latest drafts): each a list of one item, the policy's name, with its parameters.
 * `RateLimit-Policy: "default";q=1000;w=10` says the quota and the window in seconds;
 * `RateLimit: "default";r=998;t=7` what remains of it and in how many seconds the window ends.
 */
export const RATE_LIMIT_POLICY_FIELD = 'RateLimit-Policy';
export const RATE_LIMIT_FIELD = 'RateLimit';

/** A policy's field, made once per policy: it is sent with every answer counted under it. */
const policyFields = new WeakMap<RateLimitStanding['policy'], string>();

/** Policy names are ours (`default`, `token`, `quota`): a bare sf-string needs no escaping. */
export function announceStanding(response: ServerResponse, standing: RateLimitStanding): void {
  const { also } = standing;
  if (also === undefined) {
    response.setHeader(RATE_LIMIT_POLICY_FIELD, policyFieldOf(standing.policy));
    response.setHeader(RATE_LIMIT_FIELD, remainingOf(standing));
    return;
  }
  // Two policies (the rate limit and a quota): each field a list of two items, in the same order.
  response.setHeader(RATE_LIMIT_POLICY_FIELD, `${policyFieldOf(standing.policy)}, ${policyFieldOf(also.policy)}`);
  response.setHeader(RATE_LIMIT_FIELD, `${remainingOf(standing)}, ${remainingOf(also)}`);
}

function policyFieldOf(policy: RateLimitStanding['policy']): string {
  let policyField = policyFields.get(policy);
  if (policyField === undefined) {
    policyField = `"${policy.name}";q=${policy.requests};w=${policy.perSeconds}`;
    policyFields.set(policy, policyField);
  }
  return policyField;
}

const remainingOf = ({ policy, remaining, resetSeconds }: RateLimitStanding): string =>
  `"${policy.name}";r=${remaining};t=${resetSeconds}`;

/** The two fields as the OpenAPI document describes them: on every answer to a request counted under a policy. */
export const RATE_LIMIT_HEADERS = {
  [RATE_LIMIT_POLICY_FIELD]: {
    required: false,
    description:
      'the rate limit policy the request was counted under: its name, quota (q) and window in seconds (w), then, for a token or user with a quota, the "quota" policy (w: the UTC day or calendar month in seconds); absent when no policy applies',
    schema: { type: 'string', pattern: '^"[a-z]+";q=[0-9]+;w=[0-9]+(, "[a-z]+";q=[0-9]+;w=[0-9]+)?$' },
  },
  [RATE_LIMIT_FIELD]: {
    required: false,
    description:
      'what remains of each policy in the current window (r) and in how many seconds the window ends (t), in the order of RateLimit-Policy',
    schema: { type: 'string', pattern: '^"[a-z]+";r=[0-9]+;t=[0-9]+(, "[a-z]+";r=[0-9]+;t=[0-9]+)?$' },
  },
} as const;
