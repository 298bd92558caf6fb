import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { permissionsOf, type RouteTable } from '../src/platform/http/route-table.js';
import { ENVIRONMENT_VARIABLES, loadConfig } from '../src/config/load-config.js';
import { buildApplication, Routes } from '../src/container.js';
import { expectRight } from './support/either.js';
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
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
};

describe('README: tells the truth', () => {
  it('lists the error catalogue exactly', () => {
    const documented = tableRows('## Errors').map(([code, status, message]) => ({
      code: Number(code),
      status: Number(status),
      message,
    }));
    const actual = Object.values(errorCatalogue).sort((a, b) => a.code - b.code);
    expect(documented).to.deep.equal(actual.map(({ code, status, message }) => ({ code, status, message })));
  });

  it('lists every permission, each with the endpoints the route table guards with it', async () => {
    const rows = tableRows('### Permissions').map(([permission, grants]) => ({
      permission: permission!.replace(/`/g, ''),
      grants: grants!.replace(/`/g, ''),
    }));
    expect(rows.map((row) => row.permission)).to.deep.equal([...knownPermissions]);
    const config = expectRight(
      loadConfig({ env: { NODE_ENV: 'test' }, overrides: { encryption: { key: randomBytes(32).toString('base64') } } }),
    );
    const app = await buildApplication(config);
    try {
      for (const { permission, method, path } of permissionsOf(app.container.get<RouteTable>(Routes))) {
        expect(rows.find((row) => row.permission === permission)?.grants, permission).to.include(`${method} ${path}`);
      }
    } finally {
      await app.close();
    }
  });

  it('documents every environment variable the loader reads', () => {
    const documented = tableRows('## Configuration').map(([name]) => name!.replace(/`/g, ''));
    for (const { name } of ENVIRONMENT_VARIABLES) expect(documented, name).to.include(name);
  });

  it('shows as its library example the very file the package test runs (tests/package/example.mjs)', () => {
    const section = README.slice(README.indexOf('## As a library'));
    const start = section.indexOf('```js\n') + '```js\n'.length;
    const example = section.slice(start, section.indexOf('```\n', start));
    expect(example).to.equal(readFileSync(resolve(import.meta.dirname, 'package/example.mjs'), 'utf8'));
  });

  it('gives the two commands on its first screen', () => {
    const firstScreen = README.split('\n').slice(0, 15).join('\n');
    expect(firstScreen).to.include('npm install && npm start');
    expect(firstScreen).to.include('npm test');
  });
});
