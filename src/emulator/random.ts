/**
 * Randomness. Secrets always come from the OS CSPRNG, seed or no seed: a seeded secret would be guessable from a
 * published report. The seed only makes the non-secret world (ids, subdomain) reproducible between runs.
 */
import { randomBytes, randomUUID } from 'node:crypto';

/** An opaque secret: URL-safe so it can travel in a query string untouched. 48 bytes gives 64 characters. */
export function secretToken(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}

/** Alphanumeric only, like the client secrets of the live service, so no client has to escape it. */
export function alphanumericSecret(length = 64): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
}

/** Source of the non-secret ids of the seeded world. */
export interface IdSource {
  int(min: number, max: number): number;
  uuid(): string;
  word(length: number): string;
}

/** mulberry32: tiny, good enough for ids, and the same sequence for the same seed on every platform. */
export function seededIds(seed: number): IdSource {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return fromUniform(next);
}

export function randomIds(): IdSource {
  return { ...fromUniform(() => randomBytes(4).readUInt32BE(0) / 4294967296), uuid: () => randomUUID() };
}

function fromUniform(next: () => number): IdSource {
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    uuid() {
      const hex = Array.from({ length: 32 }, () => int(0, 15).toString(16));
      hex[12] = '4';
      hex[16] = (8 + int(0, 3)).toString(16);
      const s = hex.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
    word(length) {
      return Array.from({ length }, () => String.fromCharCode(97 + int(0, 25))).join('');
    },
  };
}
