/**
 * Values for the fields of a family's routes, written beside the family so that the fuzz suite
 * (tests/fuzz) can send requests that look like real ones: well-formed values, so that some
 * requests succeed, and a few the route refuses, so that refusals are reached honestly too. The
 * fuzz suite adds its own adversarial values on top of these; plain data here, so that the
 * service carries no test library.
 */

/**
 * What a field may be given, as one of:
 * - a list of values, each as likely;
 * - `often` values four times (or `times` times) as likely as `seldom` ones;
 * - `existing`: the id of something the run made and may since have deleted (a user's uid, a
 *   token's id, a queued message's id, a webhook endpoint's id, a ciphertext the service made), nine times in ten, or one
 *   of `otherwise`; `permissions` draws lists of up to three of the service's permissions, or one
 *   of `otherwise`, half and half.
 */
export type SampleValues<T = string> =
  | readonly T[]
  | { readonly often: readonly T[]; readonly seldom: readonly T[]; readonly times?: number }
  | {
      readonly existing: 'user' | 'token' | 'message' | 'webhook' | 'ciphertext' | 'permissions';
      readonly otherwise: readonly T[];
    };

export interface RouteSamples {
  readonly params?: Readonly<Record<string, SampleValues>>;
  readonly query?: Readonly<Record<string, SampleValues>>;
  readonly headers?: Readonly<Record<string, SampleValues>>;
  readonly body?: Readonly<Record<string, SampleValues<unknown>>>;
  /**
   * For a route that takes one thing in one of several ways (a place as `lat` and `lon`, or as
   * `city`, or as a header), the fields of each way (`"query lat"`, `"headers x-city"`): an honest
   * request gives the fields of one way, chosen at random, and none of the others'.
   */
  readonly oneWayOf?: readonly (readonly string[])[];
  /**
   * Optional fields (`"query cursor"`, `"body password"`) that samples seldom give well-formed (a
   * signed cursor only the server makes, a password good enough to cost scrypt's time): an honest
   * request gives one of them one time in eight rather than two in three, so that the route's
   * successes are not left to the seed.
   */
  readonly rarelyGiven?: readonly string[];
  /**
   * The request the reference shows (and "Try it out" sends), where the first well-formed value
   * of each field would not make a realistic one (a password too short, a forged cursor, two ways
   * of naming the same thing at once): it replaces those values whole.
   */
  readonly example?: {
    readonly params?: Readonly<Record<string, string>>;
    readonly query?: Readonly<Record<string, string>>;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: Readonly<Record<string, unknown>>;
  };
}

/** Samples by route, keyed `"<METHOD> <path>"` as the route table writes them (`"GET /crypto/enc"`). */
export type RouteSampleTable = Readonly<Record<string, RouteSamples>>;

/**
 * What each route answered its example request, as the reference shows it beside each success:
 * keyed like the samples (`"GET /crypto/enc"`), then by status and content type
 * (`"200 text/plain"`). Recorded from a server on loopback fixtures, never written by hand
 * (`npm run docs:answers`); a test records them again and fails when one has drifted.
 */
export type AnswerExampleTable = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** Well-formed values, and now and then ones the route refuses. */
export const mostly = <T>(often: readonly T[], seldom: readonly T[]): SampleValues<T> => ({ often, seldom });

/**
 * The value the reference shows for a field, and "Try it out" fills in: the first well-formed
 * sample. A field that names something stored (a user's uid, a token's id) has none: no value
 * written here names something on the reader's server.
 */
export function exampleOf<T>(values: SampleValues<T> | undefined): T | undefined {
  if (values === undefined) return undefined;
  if ('existing' in values) return undefined;
  if ('often' in values) return values.often[0];
  return values[0];
}

/**
 * A route's example request, field by field (`"query lat"`, `"body to"`): the one its samples
 * write, else each field's example, and for a route that takes one thing in one of several ways, the fields of its first way only,
 * so that the request the reference shows is one the route accepts.
 */
export function exampleRequestOf(samples: RouteSamples | undefined): ReadonlyMap<string, unknown> {
  const examples = new Map<string, unknown>();
  if (samples === undefined) return examples;
  if (samples.example !== undefined) {
    for (const [place, fields] of Object.entries(samples.example))
      for (const [name, value] of Object.entries(fields)) examples.set(`${place} ${name}`, value);
    return examples;
  }
  const otherWays = new Set((samples.oneWayOf ?? []).slice(1).flat());
  for (const place of ['params', 'query', 'headers', 'body'] as const)
    for (const [name, values] of Object.entries(samples[place] ?? {})) {
      const example = exampleOf<unknown>(values);
      if (example !== undefined && !otherWays.has(`${place} ${name}`)) examples.set(`${place} ${name}`, example);
    }
  return examples;
}
