import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reading a large text file (GeoNames' cities500.txt: 32 MB; WordNet's index.sense: 7 MB) as
 * bytes, a line at a time, through one reused chunk: a loader then never holds the whole file, nor
 * leaves it for the collector, and makes no string of what it leaves out.
 *
 * Calls `onLine` with each line's bytes (`from` to `to`, the newline left out) and where the
 * chunk holding it starts in the file. The chunk is reused: nothing may keep it past the call.
 */
export async function forEachLine(
  path: string,
  onLine: (bytes: Buffer, from: number, to: number, chunkAt: number) => void,
): Promise<void> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const file = await open(path, 'r');
  try {
    let carried = 0;
    /** Where the chunk's first byte is in the file. */
    let chunkAt = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, carried, CHUNK_BYTES - carried, null);
      const end = carried + bytesRead;
      let lineStart = 0;
      for (
        let newline = chunk.indexOf(NEWLINE);
        newline !== -1 && newline < end;
        newline = chunk.indexOf(NEWLINE, lineStart)
      ) {
        onLine(chunk, lineStart, newline, chunkAt);
        lineStart = newline + 1;
      }
      if (bytesRead === 0) {
        if (lineStart < end) onLine(chunk, lineStart, end, chunkAt);
        return;
      }
      if (lineStart === 0 && end === CHUNK_BYTES)
        throw new Error(`${path} holds a line longer than ${CHUNK_BYTES} bytes`);
      chunk.copy(chunk, 0, lineStart, end);
      carried = end - lineStart;
      chunkAt += lineStart;
    }
  } finally {
    await file.close();
  }
}

/**
 * A field of the line before, kept aside (the reader's chunk is reused), to tell whether this
 * line's is the same: a loader's lines often repeat their neighbour's (a lemma's senses, a
 * country's time zone). Compared and copied by loops: a field is a few bytes, fewer than Buffer's
 * compare and copy cost to call (WordNet's index.sense read in 101 ms rather than 144 the first
 * time, the built program, 2026-11-28).
 */
export class PreviousField {
  private kept = new Uint8Array(64);
  private length = -1;

  /** Whether bytes `from` to `to` are the field kept; if not, they are kept instead. */
  repeats(bytes: Uint8Array, from: number, to: number): boolean {
    const length = to - from;
    if (length === this.length && this.holds(bytes, from, length)) return true;
    if (length > this.kept.length) this.kept = new Uint8Array(length * 2);
    for (let i = 0; i < length; i++) this.kept[i] = bytes[from + i]!;
    this.length = length;
    return false;
  }

  private holds(bytes: Uint8Array, from: number, length: number): boolean {
    for (let i = 0; i < length; i++) if (this.kept[i] !== bytes[from + i]) return false;
    return true;
  }
}
