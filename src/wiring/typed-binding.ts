import type { BindInWhenOnFluentSyntax, BindWhenOnFluentSyntax, ContainerModuleLoadOptions, Newable } from 'inversify';
import type { Identifier } from '../domain/identifier.js';

/** What a binding may be found by: a typed identifier, or a class (its instances). */
export type Dependency<T> = Identifier<T> | Newable<T>;

/** The values of a list of dependencies, in its order. */
export type Resolved<Dependencies extends readonly unknown[]> = {
  readonly [K in keyof Dependencies]: Dependencies[K] extends Dependency<infer T> ? T : never;
};

/**
 * Inversify's binding, typed by our identifiers: `provide(id, [a, b], (a, b) => value)` binds
 * `id` to what the factory makes of the values of `a` and `b`, each typed by its identifier, and
 * the value must be of the type `id` names. Inversify itself takes any symbol for any type.
 * A binding that takes every binding of an identifier, or one that may be missing (the route
 * table, the metrics, readiness), is written with Inversify's own options instead.
 */
export interface TypedBindings {
  provide<T, const Dependencies extends readonly Dependency<unknown>[]>(
    id: Dependency<T>,
    dependencies: Dependencies,
    factory: (...values: Resolved<Dependencies>) => T,
  ): BindInWhenOnFluentSyntax<T>;
  constant<T>(id: Dependency<T>, value: T): BindWhenOnFluentSyntax<T>;
}

export function typedBindings({ bind }: Pick<ContainerModuleLoadOptions, 'bind'>): TypedBindings {
  return {
    provide: (id, dependencies, factory) =>
      // The one place that leaves the types to the checks above.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      bind(id).toResolvedValue(factory as (...values: any[]) => any, [...dependencies] as any[]),
    constant: (id, value) => bind(id).toConstantValue(value),
  };
}
