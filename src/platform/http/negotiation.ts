import { xmlBuilderOnFirstUse } from './xml-builder.js';
import { stringify as toYaml } from 'yaml';
import { oneOf } from './codecs.js';
import { optional } from './fields.js';
import type { ContentType, ResponseBody } from './route-table.js';

/** The formats an answer of plain fields can take, by the name `?type` gives them. */
export const FORMATS = {
  json: 'application/json',
  text: 'text/plain',
  xml: 'application/xml',
  yaml: 'application/yaml',
} as const satisfies Record<string, ContentType>;
export type Format = keyof typeof FORMATS;
const FORMAT_NAMES = Object.keys(FORMATS) as Format[];

/** What a route offering every format lists as its `produces`. */
export const EVERY_FORMAT: readonly ContentType[] = Object.values(FORMATS);

/** The `type` query parameter: it wins over the Accept header; an unknown one is refused (400/7). */
export const formatParameter = optional(
  oneOf(FORMAT_NAMES, FORMAT_NAMES.join(', ')),
  'the format of the answer: json (default), text, xml or yaml; wins over the Accept header',
);

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly quality: number;
}

/** `type/subtype;q=0.5, ...` as ranges; a range that is not one is left out. */
function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part) => {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const match = /^([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)$/.exec(range);
    if (!match) return [];
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    return Number.isFinite(quality) && quality >= 0 && quality <= 1
      ? [{ type: match[1]!, subtype: match[2]!, quality }]
      : [];
  });
}

/** How specific a range is that covers `contentType` (2 exact, 1 `type/*`, 0 `*\/*`), or -1 when it does not. */
function specificity(range: MediaRange, contentType: string): number {
  const [type, subtype] = contentType.split('/');
  if (range.type === '*' && range.subtype === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  return range.subtype === subtype ? 2 : -1;
}

/**
 * The format of an answer: `?type` when given; else the format the Accept header prefers (its
 * highest quality, the most specific range deciding each format's, JSON first among equals);
 * JSON when it names nothing offered, or nothing at all.
 */
export function chooseFormat(type: Format | undefined, accept: string | undefined): Format {
  if (type !== undefined) return type;
  if (accept === undefined) return 'json';
  const ranges = mediaRanges(accept);
  let best: { format: Format; quality: number; specificity: number } | undefined;
  for (const format of FORMAT_NAMES) {
    let chosen: { quality: number; specificity: number } | undefined;
    for (const range of ranges) {
      const covering = specificity(range, FORMATS[format]);
      if (covering > (chosen?.specificity ?? -1)) chosen = { quality: range.quality, specificity: covering };
    }
    if (!chosen || chosen.quality === 0) continue;
    if (
      !best ||
      chosen.quality > best.quality ||
      (chosen.quality === best.quality && chosen.specificity > best.specificity)
    )
      best = { format, ...chosen };
  }
  return best?.format ?? 'json';
}

const xml = xmlBuilderOnFirstUse({ format: false, suppressEmptyNode: false });
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * An answer of plain fields (strings, numbers, null) in the chosen format: JSON as it is, XML as
 * one `root` element with an element per field, YAML as a mapping, text as `asText` writes it.
 */
export function rendered<J extends Readonly<Record<string, string | number | null>>>(
  value: J,
  format: Format,
  {
    root,
    asText,
    headers,
  }: {
    readonly root: string;
    readonly asText: (value: J) => string;
    readonly headers?: Readonly<Record<string, string>>;
  },
): ResponseBody<J> {
  const withHeaders = headers ? { headers } : {};
  switch (format) {
    case 'json':
      return { contentType: 'application/json', body: value, ...withHeaders };
    case 'text':
      return { contentType: 'text/plain', body: asText(value), ...withHeaders };
    case 'xml':
      return {
        contentType: 'application/xml',
        body: XML_DECLARATION + (xml().build({ [root]: value }) as string),
        ...withHeaders,
      };
    case 'yaml':
      return { contentType: 'application/yaml', body: toYaml(value), ...withHeaders };
  }
}
