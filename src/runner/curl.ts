/**
 * A curl command line that replays a request. Built from the already-masked recorded request, so it never
 * carries a secret: a masked value reads `abcd…` and the user puts the real one back from their .env.
 */
import type { Exchange } from '../model/result.js';

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlOf(req: Exchange['request']): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, quote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (req.body !== undefined && req.body !== '') parts.push('--data-binary', quote(req.body));
  return parts.join(' ');
}
