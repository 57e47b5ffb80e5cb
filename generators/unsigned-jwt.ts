/**
 * A real access token made unsigned in each way a lax JWT library lets through (RFC 7515 §4.1.1, RFC 8725 §3.1):
 * the same header and claims, only the algorithm or the signature taken away.
 */
import { decodeProtectedHeader } from 'jose';

export const UNSIGNED_FORMS = ['alg-none', 'alg-none-capitalised', 'alg-missing', 'signature-empty', 'signature-part-missing'] as const;
export type UnsignedForm = (typeof UNSIGNED_FORMS)[number];

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function unsign(token: string, form: UnsignedForm): string {
  const [, payload] = token.split('.') as [string, string, string];
  const { alg: _alg, ...header } = decodeProtectedHeader(token);
  switch (form) {
    case 'alg-none':
      return `${enc({ ...header, alg: 'none' })}.${payload}.`;
    case 'alg-none-capitalised':
      return `${enc({ ...header, alg: 'None' })}.${payload}.`;
    case 'alg-missing':
      return `${enc(header)}.${payload}.`;
    case 'signature-empty':
      return `${token.split('.')[0]}.${payload}.`;
    case 'signature-part-missing':
      return `${token.split('.')[0]}.${payload}`;
  }
}
