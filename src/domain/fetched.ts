/**
 * A value an outside service gave (The Hive, Open-Meteo), and whether it is an older one served
 * from cache because that service could not be asked: a transport tells its client so.
 */
export interface Fetched<A> {
  readonly value: A;
  /** Served from cache because the service could not be asked. */
  readonly stale: boolean;
}
