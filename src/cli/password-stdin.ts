import { MAX_PASSWORD_LENGTH } from '../domain/users/password.js';
import { CliFailure } from './cli-failure.js';

/**
 * Room for the longest password the domain takes (a character is at most 4 bytes of UTF-8) and its
 * line ending. A longer first line is too long a password whatever follows, so no more is read:
 * the part read is refused for its length by the domain's own rule.
 */
const MAX_LINE_BYTES = 4 * MAX_PASSWORD_LENGTH + 2;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The first line of standard input without its line ending (`\n` or `\r\n`), nothing else
 * trimmed: a password reaches the CLI without showing in the process list or the shell history.
 */
export async function passwordFromStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  let lineEnd = -1;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const newline = bytes.indexOf(LF);
    if (newline !== -1) lineEnd = length + newline;
    chunks.push(bytes);
    length += bytes.length;
    if (lineEnd !== -1 || length > MAX_LINE_BYTES) break;
  }
  let line = Buffer.concat(chunks);
  const cut = lineEnd === -1 && line.length > MAX_LINE_BYTES;
  if (lineEnd !== -1) line = line.subarray(0, line[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd);
  else if (cut) line = line.subarray(0, MAX_LINE_BYTES);
  if (line.length === 0) throw new CliFailure('--password-stdin: no password on standard input (its first line is empty)');
  try {
    // ignoreBOM keeps a leading U+FEFF as typed (for the domain to judge) instead of dropping it.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(line, { stream: cut });
  } catch {
    throw new CliFailure('--password-stdin: the first line of standard input is not UTF-8 text');
  }
}
