/** The most answers kept per part: one per way of asking for the same kept object (a point, or each place name at it). */
const ANSWERS_PER_PART = 16;

/**
 * JSON of answers whose largest part is one kept object answered again and again (the 48 hours
 * of a forecast the cache keeps): the bytes of each answer are kept with that part, found again
 * by the JSON of the answer's other fields, so that a repeated answer costs the encoding of its
 * small rest and no new buffer. Making the 10 kB of an hourly answer (the JSON, then its UTF-8
 * in a new buffer) took 11 % of the server's CPU under `bench:utilities`' hourly weather, the
 * largest share after writing to the socket; encoding the hours once and joining the rest to them
 * each time still took 9.6 %, and the throughput did not move (0.38 to 0.47 of crypto's). Kept
 * whole, the answers run at 0.72 of crypto's.
 *
 * The part is known by the object itself (a WeakMap, so its answers go when its holder forgets
 * it): whoever answers must give the same object for the same content, and never change it.
 */
export class JsonPartEncodedOnce<Field extends string> {
  private readonly answers = new WeakMap<object, Map<string, Buffer>>();

  constructor(private readonly field: Field) {}

  encode<A extends { readonly [F in Field]: object }>(answer: A): Buffer {
    const part = answer[this.field];
    let answers = this.answers.get(part);
    if (answers === undefined) this.answers.set(part, (answers = new Map()));
    // A field whose value is undefined has no JSON: the rest, without the part.
    const rest = JSON.stringify({ ...answer, [this.field]: undefined });
    let bytes = answers.get(rest);
    if (bytes === undefined) {
      if (answers.size >= ANSWERS_PER_PART) answers.clear();
      answers.set(rest, (bytes = Buffer.from(JSON.stringify(answer))));
    }
    return bytes;
  }
}
