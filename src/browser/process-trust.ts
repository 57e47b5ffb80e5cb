/**
 * CA_FILE for the page's documents. The browser rules fetch each document request of a page in the kit's own process
 * (Playwright's `route.fetch`, src/browser/shared-context.ts: so that every redirect hop is recorded and judged), with
 * an https agent of Playwright's that takes no CA: it trusts only the roots the process started with, and Node 20 has
 * no way to add one later (`tls.setDefaultCACertificates` came with Node 22.15).
 *
 * So the connections to the target's servers that the kit verified against CA_FILE (the same servers whose keys
 * Chromium gets, src/browser/launch.ts) get CA_FILE's trust here: `tls.connect`, which Node's https agents call for
 * every new connection, is wrapped while a browser with such servers is open, and a connection to one of them that
 * names no CA or TLS context of its own is given the kit's (src/trust.ts `trustContext`: the system's roots,
 * NODE_EXTRA_CA_CERTS's, and CA_FILE's). The chain and the name are still checked, as the kit's own client checks
 * them; every other TLS connection of the process is left as it was. Not `ignoreHTTPSErrors`: that would accept any
 * certificate at all.
 */
import tls, { type ConnectionOptions, type SecureContext } from 'node:tls';
import { trustContext } from '../trust.js';

/** The verified servers, by `host:port`, each with its context and how many open browsers asked for it. */
const servers = new Map<string, { readonly context: SecureContext; users: number }>();
let original: typeof tls.connect | undefined;

const keyOf = (host: string, port: number | string) => `${host.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`;

function wrapped(this: unknown, ...args: unknown[]): tls.TLSSocket {
  const [options] = args;
  if (typeof options === 'object' && options !== null) {
    const o = options as ConnectionOptions;
    const server = o.host !== undefined && o.port !== undefined ? servers.get(keyOf(o.host, o.port)) : undefined;
    if (server && o.ca === undefined && o.secureContext === undefined) args[0] = { ...o, secureContext: server.context };
  }
  return (original as (...a: unknown[]) => tls.TLSSocket).apply(this, args);
}

/**
 * Trusts CA_FILE (`pem`) for the process's TLS connections to `origins` (https only) until the returned function is
 * called. Several callers may hold the same origin: it stays trusted until the last one lets go.
 */
export function trustInProcess(origins: readonly string[], pem: string): () => void {
  const keys = [...new Set(origins.map((o) => new URL(o)).filter((u) => u.protocol === 'https:').map((u) => keyOf(u.hostname, u.port || 443)))];
  if (keys.length === 0) return () => {};
  const context = trustContext(pem);
  for (const key of keys) {
    const held = servers.get(key);
    if (held) held.users += 1;
    else servers.set(key, { context, users: 1 });
  }
  if (!original) {
    original = tls.connect;
    tls.connect = wrapped as typeof tls.connect;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const key of keys) {
      const held = servers.get(key)!;
      held.users -= 1;
      if (held.users === 0) servers.delete(key);
    }
    if (servers.size === 0 && original) {
      tls.connect = original;
      original = undefined;
    }
  };
}
