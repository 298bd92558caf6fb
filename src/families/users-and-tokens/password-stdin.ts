import { MAX_PASSWORD_LENGTH } from './domain/users/password.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';

/**
 * More than the longest password the domain takes could need (a character is at most 4 bytes of
 * UTF-8) with its line ending. A first line longer than this is refused without reading the rest:
 * never cut short and handed on, where a shortened password could pass.
 */
const MAX_LINE_BYTES = 4 * (MAX_PASSWORD_LENGTH + 1);
const LF = 0x0a;
const CR = 0x0d;

/**
 * The first line of standard input without its line ending (`\n` or `\r\n`), nothing else
 * trimmed: a password reaches the CLI without showing in the process list or the shell history.
 * Its length and characters are the domain's to judge.
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
  if ((lineEnd === -1 ? length : lineEnd) > MAX_LINE_BYTES) {
    throw new CliFailure(
      `--password-stdin: the first line of standard input is over ${MAX_LINE_BYTES} bytes, longer than any password`,
    );
  }
  let line = Buffer.concat(chunks);
  if (lineEnd !== -1) line = line.subarray(0, line[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd);
  if (line.length === 0)
    throw new CliFailure('--password-stdin: no password on standard input (its first line is empty)');
  try {
    // ignoreBOM keeps a leading U+FEFF as typed (for the domain to judge) instead of dropping it.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(line);
  } catch {
    throw new CliFailure('--password-stdin: the first line of standard input is not UTF-8 text');
  }
}
