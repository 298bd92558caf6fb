import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { KeyRing } from './aes-gcm-cipher.js';

export const GENERATED_KEY_FILE = 'encryption.key';

export interface KeyRingSettings {
  /** base64 of the current key; null outside production means "generate one into dataDir once". */
  readonly key: string | null;
  /** base64 of older keys that can still decrypt after a rotation. */
  readonly previousKeys: readonly string[];
  readonly dataDir: string;
}

/**
 * The configured key, or (never in production: the config loader refuses that) a key generated
 * once into the data folder and reused on every later start.
 */
export function loadKeyRing(settings: KeyRingSettings, logger: Logger): KeyRing {
  const previous = settings.previousKeys.map((k) => Buffer.from(k, 'base64'));
  if (settings.key !== null) return { current: Buffer.from(settings.key, 'base64'), previous };

  const file = join(settings.dataDir, GENERATED_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return { current: existing, previous };

  mkdirSync(settings.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // `wx`: if another process (a CLI beside the server) won the race, use its key.
    writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    logger.warn(
      { file },
      'No encryption key configured: generated one into the data folder and will reuse it. Set UTILITY_API_ENCRYPTION_KEY in production.',
    );
    return { current: key, previous };
  } catch (error) {
    const winner = readKeyFile(file);
    if (winner) return { current: winner, previous };
    throw error;
  }
}

function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32)
    throw new Error(`${file} does not hold base64 of 32 bytes; delete it or set UTILITY_API_ENCRYPTION_KEY`);
  return key;
}
