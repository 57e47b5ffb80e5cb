/**
 * Absolute links in HAL bodies use the scheme and host the client called (docs/field-notes.md: the PHP client prefixes its
 * own base URL, others follow the link as is); see ../origin.ts for how a proxy in front is taken into account.
 */
import type { FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { addressPrefix } from '../account-address.js';
import { clientOrigin, originUrl } from '../origin.js';

export function linkBase(ctx: EmulatorContext, request: FastifyRequest): string {
  // The `links-relative` variation: a path-absolute reference, resolved by the client against the answer's URL.
  if (ctx.variations.isOn('links-relative')) return addressPrefix(request.raw);
  return `${originUrl(clientOrigin(ctx, request))}${addressPrefix(request.raw)}`;
}

/** `with=a,b` and `with[]=a&with[]=b` both name a set of extras (a repeated plain `with` keeps its last value, as PHP reads it). */
export function withSet(query: unknown): Set<string> {
  const raw = (query as Record<string, unknown> | undefined)?.with;
  const parts = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  return new Set(parts.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean));
}
