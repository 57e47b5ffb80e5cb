/**
 * Absolute links in HAL bodies use the scheme and host the client called (docs/field-notes.md: the PHP client prefixes its
 * own base URL, others follow the link as is), falling back to the instance URL when the request names no host.
 */
import type { FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';

export function linkBase(ctx: EmulatorContext, request: FastifyRequest): string {
  const host = request.headers.host;
  return host && /^[A-Za-z0-9.\-[\]:]+$/.test(host) ? `${request.protocol}://${host}` : ctx.baseUrl();
}

/** `with=a,b` and repeated `with=a&with=b` (qs makes an array) both name a set of extras. */
export function withSet(query: unknown): Set<string> {
  const raw = (query as Record<string, unknown> | undefined)?.with;
  const parts = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  return new Set(parts.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean));
}
