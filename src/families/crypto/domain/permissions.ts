/** The permissions of the crypto family: what its routes and use cases ask of who calls them. */
export const CryptoPermission = {
  CryptographyEncrypt: 'Cryptography::Encrypt',
  CryptographyDecrypt: 'Cryptography::Decrypt',
} as const;
