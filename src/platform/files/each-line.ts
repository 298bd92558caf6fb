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
