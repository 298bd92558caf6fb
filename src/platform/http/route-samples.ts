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
}

/** Samples by route, keyed `"<METHOD> <path>"` as the route table writes them (`"GET /crypto/enc"`). */
export type RouteSampleTable = Readonly<Record<string, RouteSamples>>;

/** Well-formed values, and now and then ones the route refuses. */
export const mostly = <T>(often: readonly T[], seldom: readonly T[]): SampleValues<T> => ({ often, seldom });
