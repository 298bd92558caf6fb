import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readPage } from './support/docs-pages.js';
import { randomBytes } from 'node:crypto';
import { permissionsOf } from '../src/platform/http/route-table.js';
import { ENVIRONMENT_VARIABLES, loadConfig } from '../src/config/load-config.js';
import { buildApplication } from '../src/container.js';
import { expectRight } from './support/either.js';
import { errorCatalogue } from '../src/domain/errors.js';
import { SERVICE_PERMISSIONS } from './support/permissions.js';

/** The README and docs/ are documentation users rely on: these tables must say what the code does. */
const README = readPage('README.md');

/** The page's text from the line that is exactly `heading` on; the heading must be there. */
const sectionOf = (page: string, heading: string): string => {
  const text = readPage(page);
  const at = text.startsWith(`${heading}\n`) ? 0 : text.indexOf(`\n${heading}\n`);
  expect(at, `${page} has a heading ${heading}`).to.be.at.least(0);
  return text.slice(at);
};

const tableRows = (page: string, heading: string): string[][] => {
  const section = sectionOf(page, heading);
  const table = section.slice(section.indexOf('\n|')).split('\n\n')[0]!;
  return table
    .trim()
    .split('\n')
    .slice(2)
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
};

describe('README and docs/: tell the truth', () => {
  it('lists the error catalogue exactly', () => {
    const documented = tableRows('docs/errors.md', '# Errors').map(([code, status, message]) => ({
      code: Number(code),
      status: Number(status),
      message,
    }));
    const actual = Object.values(errorCatalogue).sort((a, b) => a.code - b.code);
    expect(documented).to.deep.equal(actual.map(({ code, status, message }) => ({ code, status, message })));
  });

  it('lists every permission, each with the endpoints the route table guards with it', async () => {
    const rows = tableRows('docs/authentication.md', '## Permissions').map(([permission, grants]) => ({
      permission: permission!.replace(/`/g, ''),
      grants: grants!.replace(/`/g, ''),
    }));
    expect(rows.map((row) => row.permission)).to.deep.equal([...SERVICE_PERMISSIONS.known]);
    const config = expectRight(
      loadConfig({ env: { NODE_ENV: 'test' }, overrides: { encryption: { key: randomBytes(32).toString('base64') } } }),
    );
    const app = await buildApplication(config);
    try {
      for (const { permission, method, path } of permissionsOf(app.routes)) {
        expect(rows.find((row) => row.permission === permission)?.grants, permission).to.include(`${method} ${path}`);
      }
    } finally {
      await app.close();
    }
  });

  it('documents every environment variable the loader reads', () => {
    const documented = tableRows('docs/configuration.md', '# Configuration').map(([name]) => name!.replace(/`/g, ''));
    for (const { name } of ENVIRONMENT_VARIABLES) expect(documented, name).to.include(name);
  });

  it('shows as its library example the very file the package test runs (tests/package/example.mjs)', () => {
    const section = sectionOf('docs/library.md', '# As a library');
    const start = section.indexOf('```js\n') + '```js\n'.length;
    const example = section.slice(start, section.indexOf('```\n', start));
    expect(example).to.equal(readFileSync(resolve(import.meta.dirname, 'package/example.mjs'), 'utf8'));
  });

  it('gives the two commands on its first screen', () => {
    const firstScreen = README.split('\n').slice(0, 15).join('\n');
    expect(firstScreen).to.include('npm install && npm start');
    expect(firstScreen).to.include('npm test');
  });

  it('is a first page: at most 250 lines, the rest in docs/', () => {
    expect(README.replace(/\n$/, '').split('\n').length, 'lines of README.md').to.be.at.most(250);
  });
});
