import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFile } from '../../src/families/dictionary/adapters/wordnet-files.js';

describe('adapter: WordNet data file lines', () => {
  let folder: string;
  let fd: number;
  // Short lines, lines around and well past the first read, and a last line with no newline.
  const lines = [
    '00001740 03 n 01 entity 0 | short',
    'a'.repeat(511),
    'b'.repeat(512),
    'c'.repeat(513),
    `d${'e'.repeat(5000)}`,
    'last line',
  ];
  const offsets = lines.map((_, index) => lines.slice(0, index).reduce((sum, line) => sum + line.length + 1, 0));

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'utility-api-wordnet-'));
    writeFileSync(join(folder, 'data.noun'), lines.join('\n'), 'latin1');
    fd = openSync(join(folder, 'data.noun'), 'r');
  });
  after(() => {
    closeSync(fd);
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads the whole line at an offset, however long, up to its newline or the end of the file', () => {
    const data = new DataFile(fd);
    for (const [index, line] of lines.entries()) expect(data.lineAt(offsets[index]!), `line ${index}`).to.equal(line);
    // Once grown for a long line, short ones still end at their own newline.
    expect(data.lineAt(offsets[0]!)).to.equal(lines[0]);
    expect(data.lineAt(offsets[1]! + 500)).to.equal('a'.repeat(11));
  });
});
