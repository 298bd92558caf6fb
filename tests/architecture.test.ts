import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)];
  return specifiers.map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Node modules that reach outside the process (network, files, processes) have no place in the domain. */
const IMPURE_NODE = new Set(['fs', 'fs/promises', 'net', 'http', 'https', 'http2', 'dns', 'child_process', 'cluster', 'dgram', 'tls', 'worker_threads']);
const DOMAIN_MAY_IMPORT = (specifier: string): boolean => {
  if (specifier.startsWith('.')) return true; // checked separately: must stay inside src/domain
  if (specifier.startsWith('node:')) return !IMPURE_NODE.has(specifier.slice('node:'.length));
  return specifier === 'fp-ts' || specifier.startsWith('fp-ts/');
};

describe('architecture: dependencies point inward', () => {
  const domainDir = join(SRC, 'domain');
  const domainFiles = sourceFiles(domainDir);

  it('finds the domain files it checks', () => {
    expect(domainFiles.length).to.be.greaterThan(5);
  });

  it('the domain imports no framework, database driver, container or I/O module', () => {
    const offences = domainFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !DOMAIN_MAY_IMPORT(specifier))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
  });

  it('the domain imports nothing from outside src/domain', () => {
    const offences = domainFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .filter((specifier) => relative(domainDir, resolve(file, '..', specifier)).startsWith('..'))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
  });

  it('only the composition root picks concrete stores', () => {
    const concrete = /persistence\/(memory|knex)\/(memory|knex)-\w+-store\.js$/;
    const offences = sourceFiles(SRC)
      .filter((file) => !file.includes(`${join('adapters', 'persistence')}`) && relative(SRC, file) !== 'container.ts')
      .flatMap((file) => importsOf(file).filter((s) => concrete.test(s)).map((s) => `${relative(SRC, file)} imports ${s}`));
    expect(offences).to.deep.equal([]);
  });

  it('the checker itself catches a forbidden import', () => {
    expect(DOMAIN_MAY_IMPORT('koa')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('knex')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('inversify')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('@koa/router')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('node:fs')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('node:crypto')).to.equal(true);
  });
});
