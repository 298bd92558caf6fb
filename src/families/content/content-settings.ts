import * as t from 'io-ts';
import {
  asString,
  httpUrlOrOff,
  intInRange,
  type SettingsSection,
  upstreamCallSettings,
} from '../../platform/config/codecs.js';

export const ContentSettingsCodec = t.type({
  ...upstreamCallSettings,
  /** Each upstream of facts and quotes: its base URL, or `off` to answer only from the store. */
  chuckNorrisUrl: httpUrlOrOff,
  kanyeUrl: httpUrlOrOff,
  ronSwansonUrl: httpUrlOrOff,
  /** How long the stored facts and quotes random answers pick from are kept in memory; writes elsewhere show within it. */
  storeCacheTtlMs: intInRange(0, 3_600_000),
});
export type ContentSettings = t.TypeOf<typeof ContentSettingsCodec>;

/** The `content` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const contentSettings: SettingsSection<'content', ContentSettings> = {
  key: 'content',
  codec: ContentSettingsCodec,
  defaults: {
    chuckNorrisUrl: 'https://api.chucknorris.io',
    kanyeUrl: 'https://api.kanye.rest',
    ronSwansonUrl: 'https://ron-swanson-quotes.herokuapp.com',
    timeoutMs: 3000,
    backoffMs: 30000,
    failureTtlMs: 5000,
    hostTtlMs: 60000,
    storeCacheTtlMs: 10000,
  },
  environment: [
    { name: 'UTILITY_API_CHUCKNORRIS_URL', path: 'chuckNorrisUrl', parse: asString },
    { name: 'UTILITY_API_KANYE_URL', path: 'kanyeUrl', parse: asString },
    { name: 'UTILITY_API_RON_SWANSON_URL', path: 'ronSwansonUrl', parse: asString },
  ],
};
