import type * as t from 'io-ts';
import { isDescribed, type JsonSchema } from './codecs.js';

// Ours, not a library's: io-ts-to-json-schema 0.2.0 and io-ts-schema 0.1.1, each a single release, read no codec that carries its own schema; the first writes a record over fixed keys as an open object, an intersection as allOf and a description on every node (the document would change), the second reads no literal, record or array of io-ts's own.

// The shapes of io-ts's own types that a JSON Schema can be read from, by their `_tag`.
export interface Tagged {
  readonly _tag?: string;
  readonly value?: unknown;
  readonly keys?: Record<string, unknown>;
  readonly props?: Record<string, t.Mixed>;
  readonly types?: readonly t.Mixed[];
  readonly type?: t.Mixed;
  readonly domain?: t.Mixed;
  readonly codomain?: t.Mixed;
}

const objectOf = (props: Record<string, t.Mixed>, required: readonly string[]): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(props).map(([name, codec]) => [name, jsonSchemaOf(codec)])),
  ...(required.length > 0 && { required }),
});

/** Every property of an object type, with those that must be there (`t.type` and `t.partial`, or both intersected). */
function propertiesOf(codec: Tagged): { props: Record<string, t.Mixed>; required: string[] } | undefined {
  switch (codec._tag) {
    case 'InterfaceType':
      return { props: codec.props!, required: Object.keys(codec.props!) };
    case 'PartialType':
      return { props: codec.props!, required: [] };
    case 'ExactType':
    case 'ReadonlyType':
      return propertiesOf(codec.type as Tagged);
    case 'IntersectionType': {
      const parts = codec.types!.map((part) => propertiesOf(part as Tagged));
      if (parts.some((part) => part === undefined)) return undefined;
      return {
        props: Object.assign({}, ...parts.map((part) => part!.props)) as Record<string, t.Mixed>,
        required: parts.flatMap((part) => part!.required),
      };
    }
    default:
      return undefined;
  }
}

/**
 * The JSON Schema of what a codec accepts: a codec of fields.ts says it itself; io-ts's own
 * types are read from their structure. A codec it cannot read is a mistake in a route row, so
 * building the document fails at start-up rather than describing it wrongly.
 */
export function jsonSchemaOf(codec: t.Decoder<never, unknown>): JsonSchema {
  if (isDescribed(codec)) return codec.jsonSchema;
  const tagged = codec as unknown as Tagged;
  switch (tagged._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
      return {};
    case 'NeverType':
      return { not: {} };
    case 'AnyDictionaryType':
      return { type: 'object' };
    case 'LiteralType':
      return { const: tagged.value };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(tagged.keys!) };
    case 'UnionType':
      return { anyOf: tagged.types!.map((member) => jsonSchemaOf(member)) };
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: jsonSchemaOf(tagged.type!) };
    case 'DictionaryType': {
      const domain = tagged.domain as Tagged;
      // A record over fixed keys has every one of them.
      if (domain._tag === 'KeyofType') {
        const keys = Object.keys(domain.keys!);
        return {
          ...objectOf(Object.fromEntries(keys.map((key) => [key, tagged.codomain!])), keys),
          additionalProperties: false,
        };
      }
      return { type: 'object', additionalProperties: jsonSchemaOf(tagged.codomain!) };
    }
    case 'ExactType': {
      const object = propertiesOf(tagged);
      if (object) return { ...objectOf(object.props, object.required), additionalProperties: false };
      break;
    }
    default: {
      const object = propertiesOf(tagged);
      if (object) return objectOf(object.props, object.required);
    }
  }
  throw new Error(`No JSON Schema for the codec ${codec.name}`);
}
