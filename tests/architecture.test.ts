import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

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

/** src/container.ts and the family modules it loads from src/composition. */
const isCompositionRoot = (file: string): boolean => relative(SRC, file) === 'container.ts' || relative(SRC, file).startsWith(`composition${sep}`);

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
      .filter((file) => !file.includes(`${join('adapters', 'persistence')}`) && !isCompositionRoot(file))
      .flatMap((file) => importsOf(file).filter((s) => concrete.test(s)).map((s) => `${relative(SRC, file)} imports ${s}`));
    expect(offences).to.deep.equal([]);
  });

  it('only the composition root knows the container', () => {
    const offences = sourceFiles(SRC)
      .filter((file) => !isCompositionRoot(file))
      .flatMap((file) => importsOf(file).filter((s) => s === 'inversify' || s.startsWith('@inversifyjs/')).map((s) => `${relative(SRC, file)} imports ${s}`));
    expect(offences).to.deep.equal([]);
  });

  it('the composition hands each factory its dependencies rather than looking them up (no service location)', () => {
    const compositionFiles = sourceFiles(join(SRC, 'composition'));
    expect(compositionFiles.length).to.be.greaterThan(5);
    const offences = [...compositionFiles, join(SRC, 'container.ts')].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\b(container|context)\.get(All)?(Async)?\s*[<(]/.test(line) ? [`${relative(SRC, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
    // The root itself resolves the finished table once, to fail the start early, and the lifecycle's components.
    expect(offences.filter((offence) => !offence.startsWith('container.ts:'))).to.deep.equal([]);
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
