/**
 * A load started by its first caller and shared by every caller after it, concurrent ones
 * included. A load that fails is forgotten, so the next call tries again instead of every later
 * call repeating an error that may have passed.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** A value made by its first caller and kept: for what only some processes ever need, made when one does. */
export function makeOnce<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
