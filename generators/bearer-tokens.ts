/**
 * Authorization headers that must not authenticate at /api/v4 (§5.1, RFC 6750): malformed ones, each named for
 * what is wrong with it, and forgeries of a real access token, each named for how it was forged.
 */
import fc from 'fast-check';
import { createHmac, randomBytes } from 'node:crypto';
import { generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';

export type MalformedKind =
  | 'no-token' // "Bearer" alone
  | 'empty-token' // "Bearer " and nothing after it
  | 'basic-scheme' // another scheme entirely
  | 'random-opaque' // a well-formed token nobody issued
  | 'random-jwt-shaped' // three base64url parts nobody signed
  | 'two-tokens' // "Bearer a b"
  | 'printable-garbage'; // any printable header value

export interface MalformedCase {
  readonly kind: MalformedKind;
  readonly header: string;
}

const b64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 4, maxLength: 60 });

export const malformedAuthorization: fc.Arbitrary<MalformedCase> = fc.oneof(
  fc.constant<MalformedCase>({ kind: 'no-token', header: 'Bearer' }),
  fc.constant<MalformedCase>({ kind: 'empty-token', header: 'Bearer ' }),
  fc.constant<MalformedCase>({ kind: 'basic-scheme', header: 'Basic dXNlcjpwYXNzd29yZA==' }),
  b64url.map((t) => ({ kind: 'random-opaque' as const, header: `Bearer ${t}` })),
  fc.tuple(b64url, b64url, b64url).map(([a, b, c]) => ({ kind: 'random-jwt-shaped' as const, header: `Bearer ${a}.${b}.${c}` })),
  fc.tuple(b64url, b64url).map(([a, b]) => ({ kind: 'two-tokens' as const, header: `Bearer ${a} ${b}` })),
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 })
    .map((s) => ({ kind: 'printable-garbage' as const, header: s })),
);

export type Forgery =
  | 'signed-with-another-key' // the same claims, signed with a key the service never had (ES256: key generation is instant)
  | 'hs256-with-random-secret' // algorithm switched to HMAC (a classic confusion attack)
  | 'payload-tampered' // claims changed, original signature kept
  | 'signature-altered' // one character of the signature changed
  | 'alg-none'; // unsigned

export const FORGERIES: readonly Forgery[] = ['signed-with-another-key', 'hs256-with-random-secret', 'payload-tampered', 'signature-altered', 'alg-none'];

let otherKey: ReturnType<typeof generateKeyPair> | undefined;

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The real token forged as `how`: still a token of the same shape, naming the same jti, that no honest server accepts. */
export async function forge(token: string, how: Forgery): Promise<string> {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = decodeJwt(token);
  const protectedHeader = decodeProtectedHeader(token);
  switch (how) {
    case 'signed-with-another-key': {
      otherKey ??= generateKeyPair('ES256');
      return new SignJWT(claims).setProtectedHeader({ ...protectedHeader, alg: 'ES256' }).sign((await otherKey).privateKey);
    }
    case 'hs256-with-random-secret': {
      const h = enc({ ...protectedHeader, alg: 'HS256' });
      const mac = createHmac('sha256', randomBytes(32)).update(`${h}.${payload}`).digest('base64url');
      return `${h}.${payload}.${mac}`;
    }
    case 'payload-tampered':
      return `${header}.${enc({ ...claims, sub: '1', account_id: 1 })}.${signature}`;
    case 'signature-altered': {
      const i = Math.floor(signature.length / 2);
      return `${header}.${payload}.${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`;
    }
    case 'alg-none':
      return `${enc({ alg: 'none', typ: 'JWT' })}.${payload}.`;
  }
}
