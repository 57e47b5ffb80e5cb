/**
 * Observations of transport security: one request to an endpoint, sent with the client's default certificate
 * verification, and the absolute links its answer hands out. A certificate or handshake failure is what the rule
 * judges, so it is kept as an observation instead of ending the rule as `errored`.
 */
import { parseJson } from '../checks/json.js';
import type { TlsObservation } from '../checks/transport.js';
import { SkipRule, TransportError } from '../errors.js';
import { apiToken } from './api-token.js';
import type { RuleContext } from '../model/context.js';
import type { HttpRequest, HttpResponse } from '../model/http.js';

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HANDSHAKE/i;

/** The certificate or handshake failure behind a transport error, or undefined for any other failure. */
export function tlsFailureOf(err: unknown): string | undefined {
  if (!(err instanceof TransportError)) return undefined;
  for (let e: unknown = err.cause; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && TLS_CODE.test(code)) return `${code}: ${(e as Error).message ?? ''}`.trim();
  }
  return undefined;
}

/** Every absolute URL an answer sends a client to: its Location and every `href` string of its JSON body. */
export function linksOf(res: HttpResponse): string[] {
  const links: string[] = [];
  if (res.headers.location && /^https?:/i.test(res.headers.location)) links.push(res.headers.location);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'href' && typeof x === 'string' && /^https?:/i.test(x)) links.push(x);
        else walk(x);
      }
    }
  };
  walk(parseJson(res));
  return links;
}

export async function observeTls(t: RuleContext, endpoint: string, req: HttpRequest): Promise<TlsObservation> {
  try {
    return { endpoint, url: req.url, links: linksOf(await t.send(req)) };
  } catch (err) {
    const tlsError = tlsFailureOf(err);
    if (tlsError === undefined) throw err;
    return { endpoint, url: req.url, tlsError, links: [] };
  }
}

/** A bearer when the target gives one, else undefined: the transport rule still runs on a target without a token. */
export async function optionalApiToken(t: RuleContext): Promise<string | undefined> {
  try {
    return await apiToken(t);
  } catch (err) {
    if (err instanceof SkipRule) return undefined;
    throw err;
  }
}
