import { randomBytes, randomUUID } from 'node:crypto';
import { rgbOf, type BarcodeRequest } from '../../src/families/barcode/domain/barcode.js';
import { issueLicense, issueSecret } from '../../src/families/users-and-tokens/domain/tokens/secret.js';
import { systemRandomness } from '../../src/platform/randomness/system-randomness.js';
import type { TokenRecord } from '../../src/domain/identity/token.js';
import type { User } from '../../src/domain/identity/user.js';

let sequence = 0;
const T0 = Date.UTC(2026, 0, 1);

/** A valid user; each call a new one unless fields are given. */
export function aUser(fields: Partial<User> = {}): User {
  sequence += 1;
  return {
    id: randomUUID(),
    uid: randomBytes(21).toString('base64url'),
    username: `user${sequence}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    displayName: null,
    email: `user${sequence}@example.com`,
    passwordHash: null,
    permissions: ['Cryptography::Encrypt'],
    blocked: false,
    quota: null,
    createdAt: T0 + sequence,
    updatedAt: T0 + sequence,
    ...fields,
  };
}

export function aToken(userId: string, fields: Partial<TokenRecord> = {}): TokenRecord {
  sequence += 1;
  const { secretHash, prefix } = issueSecret(systemRandomness);
  return {
    id: randomUUID(),
    userId,
    secretHash,
    prefix,
    license: issueLicense(systemRandomness),
    name: null,
    scopes: ['Cryptography::*'],
    createdAt: T0 + sequence,
    expiresAt: null,
    lastUsedAt: null,
    uses: 0,
    disabled: false,
    issuedBy: null,
    issuedThrough: null,
    rateLimit: null,
    origin: 'token',
    allowedAddresses: null,
    rotatedTo: null,
    rotationEndsAt: null,
    rotatedFrom: null,
    lineage: null,
    quota: null,
    ...fields,
  };
}

/** A barcode request with the use case's defaults: a QR code as PNG at scale 2, upright, no text. */
export function aBarcodeRequest(fields: Partial<BarcodeRequest> & Pick<BarcodeRequest, 'content'>): BarcodeRequest {
  return {
    symbology: 'qrcode',
    format: 'png',
    scale: 2,
    fit: undefined,
    heightMm: undefined,
    includeText: false,
    textSize: undefined,
    rotate: 'N',
    color: rgbOf('000000'),
    textColor: rgbOf('000000'),
    background: rgbOf('FFFFFF'),
    quietZone: true,
    ecLevel: undefined,
    ...fields,
  };
}
