import { expect } from 'chai';
import { LibraryPlusCodes } from '../../src/families/location/adapters/open-location-code/library-plus-codes.js';
import { MemoryPlusCodes } from '../../src/families/location/adapters/open-location-code/memory-plus-codes.js';
import type { CodeArea } from '../../src/families/location/domain/plus-codes.js';
import type { PlusCodes } from '../../src/families/location/domain/ports.js';
import {
  EIFFEL_CELL,
  EIFFEL_CELL_11,
  EIGHT_DIGIT_CELL,
  NEAR_POLE_CELL,
  ROUND_CORNER_CELL,
  ROUND_CORNER_CELL_2,
  SEEDED_CELLS,
  SOUTHERN_TWIN_CELL,
} from '../support/location-fixtures.js';

const adapters: { name: string; open: () => PlusCodes }[] = [
  { name: 'memory', open: () => new MemoryPlusCodes(SEEDED_CELLS) },
  { name: 'open-location-code', open: () => new LibraryPlusCodes() },
];

function expectCell(actual: CodeArea, expected: CodeArea): void {
  expect(actual.code).to.equal(expected.code);
  expect(actual.length).to.equal(expected.length);
  for (const side of ['south', 'west', 'north', 'east'] as const)
    expect(actual[side], side).to.be.closeTo(expected[side], 1e-9);
}

for (const adapter of adapters) {
  describe(`contract: PlusCodes (${adapter.name})`, () => {
    const plusCodes = adapter.open();

    it('encodes a point into the cell of the asked length that holds it', () => {
      expect(plusCodes.encode(48.85829, 2.2944, 10)).to.equal('8FW4V75V+8Q');
      expect(plusCodes.encode(48.85829, 2.2944, 11)).to.equal('8FW4V75V+8Q6');
    });

    it('puts a round coordinate into the cell it is the south-west corner of', () => {
      expect(plusCodes.encode(48.85, 2.35, 10)).to.equal(ROUND_CORNER_CELL.code);
      expect(plusCodes.encode(35.6, 3.033, 10)).to.equal(ROUND_CORNER_CELL_2.code);
      expectCell(plusCodes.decode(ROUND_CORNER_CELL.code), ROUND_CORNER_CELL);
    });

    it('decodes a full code, in either case, into its cell', () => {
      expect(plusCodes.kindOf('8FW4V75V+8Q')).to.equal('full');
      expectCell(plusCodes.decode('8FW4V75V+8Q'), EIFFEL_CELL);
      expectCell(plusCodes.decode('8fw4v75v+8q6'), EIFFEL_CELL_11);
    });

    it('tells short codes from full ones and from things that are no code', () => {
      expect(plusCodes.kindOf('V75V+8Q')).to.equal('short');
      expect(plusCodes.kindOf('v75v+8q')).to.equal('short');
      for (const bad of ['HELLO+WORLD', '+8Q', '8FW4V75V8Q', '', '+'])
        expect(plusCodes.kindOf(bad), bad).to.equal('invalid');
    });

    it('recovers a short code into the full code nearest the reference', () => {
      expect(plusCodes.recover('V75V+8Q', 48.8, 2.3)).to.equal(EIFFEL_CELL.code);
      expect(plusCodes.recover('v75v+8q', 47.1, 2.3)).to.equal(SOUTHERN_TWIN_CELL.code);
    });

    it('recovers a code with no digits after the separator, and codes near a pole', () => {
      expect(plusCodes.kindOf('22+')).to.equal('short');
      expect(plusCodes.recover('22+', 42.899, 9.012)).to.equal(EIGHT_DIGIT_CELL.code);
      expect(plusCodes.recover('2222+22', 89.6, 0)).to.equal(NEAR_POLE_CELL.code);
    });
  });
}
