import * as t from 'io-ts';
import { asInteger, intInRange, type SettingsSection } from '../../platform/config/codecs.js';

export const BarcodeSettingsCodec = t.type({
  /** Longest `content` accepted, in UTF-8 bytes; beyond it 400/7 (a 2 KB QR code takes ~0.5 s to encode). */
  maxContentBytes: intInRange(1, 8192),
  /** Largest PNG drawn, width × height; beyond it 400/7 (each pixel is 4 bytes while drawing). */
  maxPixels: intInRange(10_000, 67_108_864),
  /** Rendered images kept for repeated requests, in bytes; 0 turns the cache off. */
  cacheBytes: intInRange(0, 1_073_741_824),
  /** Worker threads drawing bwip-js barcodes at once; null for one less than the cores (at least 1), so the event loop keeps a core. */
  workers: t.union([intInRange(1, 64), t.null]),
  /** Drawings waiting for a worker; one more is refused with 503/29 and Retry-After. */
  queue: intInRange(0, 10_000),
  /** Largest image POST /barcode/decode reads, in bytes of the PNG or JPEG file; beyond it 400. */
  maxDecodeBytes: intInRange(1024, 16_777_216),
});
export type BarcodeSettings = t.TypeOf<typeof BarcodeSettingsCodec>;

/** The `barcode` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const barcodeSettings: SettingsSection<'barcode', BarcodeSettings> = {
  key: 'barcode',
  codec: BarcodeSettingsCodec,
  defaults: {
    maxContentBytes: 1024,
    maxPixels: 2500000,
    cacheBytes: 4194304,
    workers: null,
    queue: 64,
    maxDecodeBytes: 2097152,
  },
  environment: [
    { name: 'UTILITY_API_BARCODE_WORKERS', path: 'workers', parse: asInteger },
    { name: 'UTILITY_API_BARCODE_QUEUE', path: 'queue', parse: asInteger },
    { name: 'UTILITY_API_BARCODE_MAX_DECODE_BYTES', path: 'maxDecodeBytes', parse: asInteger },
  ],
};
