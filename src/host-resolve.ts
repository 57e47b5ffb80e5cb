/**
 * `HOST_RESOLVE`: host names the kit resolves itself, as curl's `--resolve` does, for hosts the machine's DNS does not
 * know: a staging account behind split DNS, or the emulator's deployed shape addressed by name (`--account-domain`),
 * whose accounts and chat interface sit at `<label>.<domain>` (src/emulator/shape.ts). Every request of the kit goes through it (undici, the
 * early-answer client, Chromium's host rules); names it does not cover resolve as usual.
 *
 * Format: `<name>=<address>` pairs separated by commas; a name `*.<domain>` covers the domain and every name under it.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';

/** One pair of the setting. */
export interface HostRule {
  /** A host name, or `*.<domain>` for the domain and every name under it; lower case. */
  readonly name: string;
  /** An IPv4 or IPv6 address, without brackets. */
  readonly address: string;
}

const NAME = /^(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Parses the setting; a malformed pair throws a message naming it (the caller adds the key). */
export function parseHostRules(raw: string): HostRule[] {
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new Error(`"${pair}" is not <name>=<address>`);
    const name = pair.slice(0, eq).trim().toLowerCase();
    const address = pair.slice(eq + 1).trim().replace(/^\[|\]$/g, '');
    if (!NAME.test(name)) throw new Error(`"${name}" is not a host name or *.<domain>`);
    if (isIP(address) === 0) throw new Error(`"${address}" is not an IP address (in "${pair}")`);
    return { name, address };
  });
}

/** The address a rule gives `hostname`, if one covers it. */
export function ruleAddress(rules: readonly HostRule[], hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  for (const rule of rules) {
    if (rule.name.startsWith('*.')) {
      const domain = rule.name.slice(2);
      if (name === domain || name.endsWith(`.${domain}`)) return rule.address;
    } else if (name === rule.name) return rule.address;
  }
  return undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` that answers the names the rules cover and leaves any other to `fallback` (default `dns.lookup` as it
 * was when this was made): an agent's `lookup` (`new https.Agent({ lookup })`, undici's
 * `new Agent({ connect: { lookup } })`), or `dns.lookup` itself (./resolve.ts).
 */
export function hostLookup(rules: readonly HostRule[], fallback: typeof dnsLookup = dnsLookup) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const done = (typeof options === 'function' ? options : callback)!;
    const opts = typeof options === 'object' ? options : {};
    const address = ruleAddress(rules, hostname);
    if (address === undefined) {
      fallback(hostname, opts as LookupAllOptions, done as never);
      return;
    }
    const family = isIP(address);
    if ((opts as LookupAllOptions).all) done(null, [{ address, family }]);
    else done(null, address, family);
  };
}

/** Chromium's `--host-resolver-rules` for the same rules (`MAP *.sandbox.localhost 127.0.0.1`). */
export function chromiumHostRules(rules: readonly HostRule[]): string {
  return rules.flatMap((r) => {
    const address = r.address.includes(':') ? `[${r.address}]` : r.address;
    // Chromium's `*.domain` covers the names under it only; the domain itself gets its own line.
    return r.name.startsWith('*.') ? [`MAP ${r.name} ${address}`, `MAP ${r.name.slice(2)} ${address}`] : [`MAP ${r.name} ${address}`];
  }).join(', ');
}
