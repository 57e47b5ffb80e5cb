/**
 * The scheme and host a client called, which every absolute link and every host the emulator names (`_links`,
 * `api_domain` and `base_domain` in tokens, `referer` on the consent redirect) must use: a client follows them as
 * given (docs/field-notes.md), and the bind address is not an address a client behind a proxy can reach. Behind a
 * TLS-terminating reverse proxy, `X-Forwarded-Proto` and `X-Forwarded-Host` name what the client called; without
 * them the request's own `Host` does; without that the instance URL.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { hostOf, type EmulatorContext } from './context.js';

export interface ClientOrigin {
  readonly protocol: 'http' | 'https';
  /** host[:port], as the client wrote it. */
  readonly host: string;
}

/** A DNS name or IPv4 address, or a bracketed IPv6 literal, with an optional port: nothing that could break a URL. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The first value of a header a chain of proxies may have appended to (`a, b`). */
function firstValue(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const first = raw?.split(',')[0]?.trim();
  return first ? first : undefined;
}

/** The host[:port] the client called, from the headers: `X-Forwarded-Host`, else `Host`, when it is a plain host. */
export function calledHost(headers: IncomingHttpHeaders): string | undefined {
  const candidates = [firstValue(headers['x-forwarded-host']), firstValue(headers.host)];
  return candidates.find((h): h is string => h !== undefined && HOST.test(h));
}

export function clientOrigin(ctx: EmulatorContext, request: FastifyRequest): ClientOrigin {
  const forwardedProto = firstValue(request.headers['x-forwarded-proto'])?.toLowerCase();
  const protocol = forwardedProto === 'https' || forwardedProto === 'http'
    ? forwardedProto
    : request.protocol === 'https' ? 'https' : 'http';
  return { protocol, host: calledHost(request.headers) ?? hostOf(ctx) };
}

/** `scheme://host[:port]`, no trailing slash. */
export function originUrl(origin: ClientOrigin): string {
  return `${origin.protocol}://${origin.host}`;
}
