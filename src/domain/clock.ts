/** Time as the domain sees it: milliseconds since the Unix epoch. */
export interface Clock {
  now(): number;
}
export const Clock = Symbol.for('Clock');
