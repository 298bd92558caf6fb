import { audit } from './audit/family.js';
import { barcode } from './barcode/family.js';
import { content } from './content/family.js';
import { crypto } from './crypto/family.js';
import { dictionary } from './dictionary/family.js';
import { game } from './game/family.js';
import { location } from './location/family.js';
import { mail } from './mail/family.js';
import { password } from './password/family.js';
import { phone } from './phone/family.js';
import { usage } from './usage/family.js';
import { usersAndTokens } from './users-and-tokens/family.js';
import { weather } from './weather/family.js';
import { webhooks } from './webhooks/family.js';
import { whois } from './whois/family.js';

/**
 * Every family the service is built from. A new family is its folder and one line here; this
 * order is that of the docs, of the route table and the reference's sections, and of the start
 * of background work (stopped in reverse), whatever order a library user names them in.
 */
export const FAMILIES = [
  crypto,
  password,
  usersAndTokens,
  usage,
  audit,
  game,
  phone,
  location,
  weather,
  dictionary,
  content,
  barcode,
  whois,
  mail,
  webhooks,
] as const;
