/**
 * The name a port (or any other dependency) is bound and found by, carrying the type of what it
 * names: the composition's typed bindings refuse a value or a dependency of another type, so two
 * dependencies swapped in a binding no longer compile. A symbol at run time, as before.
 */
export type Identifier<T> = symbol & { readonly identifies?: T };

export const identifier = <T>(name: string): Identifier<T> => Symbol.for(name) as Identifier<T>;
