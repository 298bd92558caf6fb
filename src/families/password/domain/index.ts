/** What other families and library users may use of password generation: its use case, what it takes and answers, its port and its permissions. */
export type { GeneratedPassword, GeneratePassword, PasswordOptions } from './generate-password.js';
export type { PassphraseWords } from './ports.js';
export { PasswordPermission } from './permissions.js';
