/** What other families and library users may use of encryption: its use cases, its port and its permissions. */
export type { DecryptText, EncryptText } from './crypt-text.js';
export type { Cipher, CipherError } from './ports.js';
export { CryptoPermission } from './permissions.js';
