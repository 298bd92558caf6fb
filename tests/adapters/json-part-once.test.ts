import { expect } from 'chai';
import fc from 'fast-check';
import { JsonPartEncodedOnce } from '../../src/platform/http/json-part-once.js';

describe('http: JSON of an answer whose largest part is encoded once', () => {
  const others = fc.dictionary(
    fc.string().filter((key) => key !== 'hours'),
    fc.oneof(fc.jsonValue(), fc.constant(undefined)),
  );
  const hours = fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 5 });

  it('makes the bytes JSON.stringify makes of the whole answer, its fields in their order', () => {
    fc.assert(
      fc.property(others, hours, others, (before, part, after) => {
        const answer = { ...before, hours: part, ...after };
        expect(new JsonPartEncodedOnce('hours').encode(answer).toString()).to.equal(JSON.stringify(answer));
      }),
    );
  });

  it('answers the same part again with each answer’s own other fields', () => {
    const encoder = new JsonPartEncodedOnce('hours');
    const kept = [{ time: '2026-11-23T10:00', temperature: 4.2, description: 'overcast "grey"' }];
    fc.assert(
      fc.property(others, (rest) => {
        const answer = { location: rest, hours: kept, units: { temperature: '°C' } };
        expect(encoder.encode(answer).toString()).to.equal(JSON.stringify(answer));
      }),
    );
  });
});
