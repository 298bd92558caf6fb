import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENVIRONMENT_VARIABLES } from '../src/config/load-config.js';
import { errorCatalogue } from '../src/domain/errors.js';
import { knownPermissions } from '../src/domain/permissions.js';

/** The README is documentation users rely on: these tables must say what the code does. */
const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

const tableRows = (heading: string): string[][] => {
  const section = README.slice(README.indexOf(heading));
  const table = section.slice(section.indexOf('\n|')).split('\n\n')[0]!;
  return table
    .trim()
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').slice(1, -1).map((cell) => cell.trim()));
};

describe('README: tells the truth', () => {
  it('lists the error catalogue exactly', () => {
    const documented = tableRows('## Errors').map(([code, status, message]) => ({ code: Number(code), status: Number(status), message }));
    const actual = Object.values(errorCatalogue).sort((a, b) => a.code - b.code);
    expect(documented).to.deep.equal(actual.map(({ code, status, message }) => ({ code, status, message })));
  });

  it('lists every permission', () => {
    const documented = tableRows('### Permissions').map(([permission]) => permission!.replace(/`/g, ''));
    expect(documented).to.deep.equal([...knownPermissions]);
  });

  it('documents every environment variable the loader reads', () => {
    const documented = tableRows('## Configuration').map(([name]) => name!.replace(/`/g, ''));
    for (const { name } of ENVIRONMENT_VARIABLES) expect(documented, name).to.include(name);
  });

  it('gives the two commands on its first screen', () => {
    const firstScreen = README.split('\n').slice(0, 15).join('\n');
    expect(firstScreen).to.include('npm install && npm start');
    expect(firstScreen).to.include('npm test');
  });
});
