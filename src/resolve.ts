/**
 * `conformance-kit/resolve` (issue 40): the kit's `HOST_RESOLVE` for any Node program, as a preload.
 *
 * ```sh
 * HOST_RESOLVE='*.amocrm.ru=127.0.0.1' node --import conformance-kit/resolve app.js
 * ```
 *
 * A client that hard-codes the service's domain (`https://{subdomain}.amocrm.ru`) then reaches
 * `conformance emulator --account-domain amocrm.ru`, which prints the value, with no /etc/hosts entry: every Node client
 * of the process resolves the names the setting covers to its address (src/host-resolve.ts), any other name as usual.
 * It patches `dns.lookup` (which `http`, `https`, `net`, `tls` and so axios, got, node-fetch and Node's own `fetch`
 * use; ES module imports of `lookup` included) and gives undici's global dispatcher (the global `fetch`) the same
 * lookup for its connections.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { Agent, setGlobalDispatcher } from 'undici';
import { hostLookup, parseHostRules, type HostRule } from './host-resolve.js';

/** Whether this process already resolves through a setting: applied once, a second call changes nothing. */
let applied: readonly HostRule[] | undefined;

/**
 * Applies `HOST_RESOLVE` (`<name>=<address>` pairs, `*.<domain>` for every name under it) to every Node client of this
 * process; nothing when it is empty. Returns the rules; a malformed pair throws a message naming the setting.
 */
export function applyHostResolve(raw: string | undefined = process.env.HOST_RESOLVE): readonly HostRule[] {
  if (applied) return applied;
  let rules: HostRule[];
  try {
    rules = parseHostRules(raw ?? '');
  } catch (err) {
    throw Object.assign(new Error(`HOST_RESOLVE: ${(err as Error).message}`), { code: 'ERR_HOST_RESOLVE' });
  }
  if (rules.length === 0) return rules;
  const lookup = hostLookup(rules, dns.lookup.bind(dns) as typeof dns.lookup);
  dns.lookup = lookup as typeof dns.lookup;
  // `import { lookup } from 'node:dns'` in a module loaded after this one sees the patched function too.
  syncBuiltinESMExports();
  setGlobalDispatcher(new Agent({ connect: { lookup: lookup as never } }));
  applied = rules;
  return rules;
}
