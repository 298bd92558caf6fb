/**
 * Every family's public domain entry, gathered for the package's `utility-api/domain` entry: a
 * new family adds its line here beside its line in src/families/index.ts. That list cannot stand
 * in for this one: its descriptors import their modules and adapters, and this entry is the
 * domain's words alone (tests/architecture.test.ts fails on a family missing from either).
 */
export * from '../families/audit/domain/index.js';
export * from '../families/barcode/domain/index.js';
export * from '../families/content/domain/index.js';
export * from '../families/crypto/domain/index.js';
export * from '../families/dictionary/domain/index.js';
export * from '../families/game/domain/index.js';
export * from '../families/location/domain/index.js';
export * from '../families/mail/domain/index.js';
export * from '../families/password/domain/index.js';
export * from '../families/phone/domain/index.js';
export * from '../families/usage/domain/index.js';
export * from '../families/users-and-tokens/domain/index.js';
export * from '../families/weather/domain/index.js';
export * from '../families/whois/domain/index.js';
export * from '../families/webhooks/domain/index.js';
