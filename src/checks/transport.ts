/**
 * Transport security of the endpoints a bearer or a secret travels to (RFC 6749 §3.1, §3.2; RFC 6750 §5.3): a remote
 * target is https with a certificate that verifies; a loopback target is exempt (its traffic never leaves the machine,
 * so the embedded emulator serves plain http). Absolute links an answer hands out must not send a client to plain
 * http on another host, where it would carry its bearer in clear.
 */
import type { Judge } from '../model/check.js';
import { fail, observed, pass } from '../model/outcome.js';

/** What a rule saw of one endpoint: its URL, a TLS failure if the request did not get through, the links it gave. */
export interface TlsObservation {
  readonly endpoint: string;
  readonly url: string;
  /** The certificate or handshake failure that stopped the request, when one did. */
  readonly tlsError?: string;
  /** Absolute URLs the answer sends a client to (Location, HAL `href`s). */
  readonly links: readonly string[];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A loopback host (localhost, 127.0.0.0/8, ::1): traffic to it never crosses a network. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host.endsWith('.localhost');
}

/** https with a verified certificate; on a loopback target an `informational` finding that says it is exempt. */
export const servedOverTls: Judge<TlsObservation> = (o) => {
  const name = `${o.endpoint} over TLS`;
  if (o.tlsError) return fail(name, `expected a certificate that verifies, observed ${o.tlsError} (${o.url})`);
  if (new URL(o.url).protocol === 'https:') return pass(name, `https, certificate verified (${o.url})`);
  if (isLoopbackUrl(o.url)) return observed(name, `${o.url} is plain http on loopback: exempt, the traffic never leaves the machine (a remote target must be https)`);
  return fail(name, `expected https, observed ${o.url} (plain http over a network)`);
};

/** No link of the answer points at plain http on a non-loopback host. */
export const noPlainHttpLinks: Judge<TlsObservation> = (o) => {
  const name = `${o.endpoint} links`;
  const plain = o.links.filter((l) => l.toLowerCase().startsWith('http:') && !isLoopbackUrl(l));
  if (plain.length > 0) return fail(name, `expected https links (or loopback), observed ${plain.slice(0, 3).join(', ')}`);
  return pass(name, o.links.length === 0 ? 'no absolute links' : `${o.links.length} link(s), none plain http off loopback`);
};
