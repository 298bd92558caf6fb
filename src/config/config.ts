import type { SettingsSection } from '../platform/config/codecs.js';
import type { PlatformSettings } from '../platform/config/platform-settings.js';
import type { FAMILIES } from '../families/index.js';

export { defaultRateLimitOf } from '../platform/config/platform-settings.js';

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

/** Each family's section of the settings, under its key (`whois`, `mail`, ...). */
type FamilySections<Family> = Family extends { readonly settings?: SettingsSection<infer Key, infer Settings> }
  ? { readonly [K in Key]: Settings }
  : never;

/** Every setting of the service: the platform's, and each family's section. */
export type AppConfig = PlatformSettings & UnionToIntersection<FamilySections<(typeof FAMILIES)[number]>>;
