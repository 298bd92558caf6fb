/** The cell a full plus code names. */
export interface CodeArea {
  /** The code, upper case, with its separator. */
  readonly code: string;
  /** Significant characters (separator and padding excluded). */
  readonly length: number;
  readonly south: number;
  readonly west: number;
  readonly north: number;
  readonly east: number;
}

/** The code lengths encoding offers: pairs up to 10, then one grid character each. */
export const PLUS_CODE_LENGTHS = [2, 4, 6, 8, 10, 11, 12, 13, 14, 15] as const;
export type PlusCodeLength = (typeof PLUS_CODE_LENGTHS)[number];
export const DEFAULT_PLUS_CODE_LENGTH: PlusCodeLength = 10;
