import type { CodeArea, PlusCodeLength } from '../../domain/plus-codes.js';
import type { PlusCodes } from '../../domain/ports.js';

const centreOf = (cell: CodeArea) => ({ lat: (cell.south + cell.north) / 2, lon: (cell.west + cell.east) / 2 });

/**
 * Plus codes for a few cells given to the constructor, for tests that should not depend on the
 * library: it knows the seeded cells and nothing else (asking about another point is a bug in
 * the test, so it throws).
 */
export class MemoryPlusCodes implements PlusCodes {
  constructor(private readonly cells: readonly CodeArea[]) {}

  kindOf(code: string): 'full' | 'short' | 'invalid' {
    const upper = code.toUpperCase();
    if (this.cells.some((cell) => cell.code === upper)) return 'full';
    const isTail = (cell: CodeArea) =>
      cell.code.endsWith(upper) && cell.code.length > upper.length && /^[^+]{2,6}\+/.test(upper);
    return this.cells.some(isTail) ? 'short' : 'invalid';
  }

  encode(lat: number, lon: number, length: PlusCodeLength): string {
    const cell = this.cells.find(
      (c) => c.length === length && c.south <= lat && lat < c.north && c.west <= lon && lon < c.east,
    );
    if (!cell) throw new Error(`No seeded cell of length ${length} holds ${lat},${lon}`);
    return cell.code;
  }

  decode(fullCode: string): CodeArea {
    const cell = this.cells.find((c) => c.code === fullCode.toUpperCase());
    if (!cell) throw new Error(`No seeded cell ${fullCode}`);
    return cell;
  }

  recover(shortCode: string, referenceLat: number, referenceLon: number): string {
    const upper = shortCode.toUpperCase();
    const squaredDegrees = (cell: CodeArea) => {
      const centre = centreOf(cell);
      return (centre.lat - referenceLat) ** 2 + (centre.lon - referenceLon) ** 2;
    };
    const [nearest] = this.cells
      .filter((cell) => cell.code.endsWith(upper))
      .sort((a, b) => squaredDegrees(a) - squaredDegrees(b));
    if (!nearest) throw new Error(`No seeded cell ends with ${shortCode}`);
    return nearest.code;
  }
}
