import { createRequire } from 'node:module';
import type { XMLBuilder, XmlBuilderOptions } from 'fast-xml-parser';

/**
 * An XML builder made at its first use: a process that writes no XML (the CLI, a server no client
 * asks for XML) starts without loading fast-xml-parser, about 40 ms of CPU.
 */
export function xmlBuilderOnFirstUse(options: XmlBuilderOptions): () => XMLBuilder {
  let builder: XMLBuilder | undefined;
  return () =>
    (builder ??= new (createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser')).XMLBuilder(
      options,
    ));
}
