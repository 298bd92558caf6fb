import fc from 'fast-check';
import { FAMILIES } from '../../src/families/index.js';
import type { AnyFamily } from '../../src/wiring/family.js';
import { permissionCatalogueOf } from '../../src/composition/families.js';
import type { Route } from '../../src/platform/http/route-table.js';
import type { SampleValues } from '../../src/platform/http/route-samples.js';
import {
  messageIdReference,
  webhookIdReference,
  tokenIdReference,
  uidReference,
  type FuzzPool,
  type RouteSamples,
  type Sample,
} from './route-fuzz.js';

/**
 * The fuzz suite's values for every field of the route table, read from the samples each family
 * writes beside its routes (src/families/<family>/<family>-samples.ts). A route that declares a
 * field without samples stops the fuzz suite, naming the field. Routes that declare no field
 * (the system endpoints) need none.
 */

const REFERENCES = {
  user: uidReference,
  token: tokenIdReference,
  message: messageIdReference,
  webhook: webhookIdReference,
} as const;

// Array.isArray does not narrow a readonly array.
const isList = <T>(values: SampleValues<T>): values is readonly T[] => Array.isArray(values);

function arbitraryOf<T>(values: SampleValues<T>, permissions: readonly string[]): Sample<T> {
  if (isList(values)) return fc.constantFrom(...values);
  if ('often' in values)
    return fc.oneof(
      { weight: values.times ?? 4, arbitrary: fc.constantFrom(...values.often) },
      { weight: 1, arbitrary: fc.constantFrom(...values.seldom) },
    );
  const otherwise = fc.constantFrom(...values.otherwise);
  switch (values.existing) {
    case 'permissions':
      return fc.oneof(otherwise, fc.subarray([...permissions], { maxLength: 3 }) as unknown as fc.Arbitrary<T>);
    case 'ciphertext':
      return (pool: FuzzPool) =>
        pool.ciphertexts.length === 0
          ? otherwise
          : fc.oneof(
              { weight: 9, arbitrary: fc.constantFrom(...pool.ciphertexts) as unknown as fc.Arbitrary<T> },
              { weight: 1, arbitrary: otherwise },
            );
    default:
      return fc.oneof(
        { weight: 9, arbitrary: REFERENCES[values.existing] as unknown as fc.Arbitrary<T> },
        { weight: 1, arbitrary: otherwise },
      );
  }
}

function arbitrariesOf<T>(
  fields: Readonly<Record<string, SampleValues<T>>> | undefined,
  permissions: readonly string[],
): Record<string, Sample<T>> | undefined {
  if (!fields) return undefined;
  return Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, arbitraryOf(values, permissions)]));
}

/** `samplesOf(route)` for a service built from `families`. */
export function samplesFrom(families: readonly AnyFamily[] = FAMILIES): (route: Route) => RouteSamples {
  const permissions = permissionCatalogueOf(families).known;
  const table = new Map(families.flatMap((family) => Object.entries(family.samples)));
  // Fields that mean the same wherever a route declares them: `x-uid`, which most routes refuse.
  const everywhere = { 'x-uid': arbitraryOf<string>({ existing: 'user', otherwise: ['nobody'] }, permissions) };
  return (route) => {
    const samples = table.get(`${route.method} ${route.path}`) ?? {};
    return {
      params: arbitrariesOf(samples.params, permissions),
      query: arbitrariesOf(samples.query, permissions),
      headers: { ...everywhere, ...arbitrariesOf(samples.headers, permissions) },
      body: arbitrariesOf(samples.body, permissions),
      oneWayOf: samples.oneWayOf,
      rarelyGiven: samples.rarelyGiven,
    };
  };
}

/** The samples of the service's own families. */
export const samplesOf = samplesFrom();
