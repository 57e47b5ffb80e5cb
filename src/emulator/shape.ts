/**
 * The two shapes of the emulator (issue 27; docs/emulator.md, "Shapes"). Both are the service as the spec allows it;
 * they differ in where things are served, which is what a verdict must not depend on.
 *
 * - `one-origin` (the embedded target's default, the faster one to run): every interface on one origin. The root
 *   address serves the main account's API and token endpoint (and a token of any of the administrator's accounts),
 *   each account is also served at `/_accounts/<subdomain>` and at `<subdomain>.<accountDomain>`, and the chat
 *   interface is on the same origin.
 * - `deployed` (`conformance emulator`'s default: it stands in for a staging account): the service as it is deployed.
 *   Each account is served only at an origin of its own (spec preamble: "{base_url}: address of one customer account
 *   (each account has its own sub-domain)"): by default a port of its own on the listen address, which any client
 *   reaches with no resolver (issue 40), and, on the instance's port, `<scheme>://<subdomain>.<accountDomain>:<port>`
 *   (the one address when a domain is named: `--account-domain`); the chat interface likewise at its own port or
 *   `amojo.<accountDomain>`; the root address serves what is no account's: the
 *   access-granting page, the control API. The delivery-status `{msgid}` is the chat-interface id alone (§4.3
 *   "new_message[msgid] | Message id in the chat interface").
 *
 * The host names resolve only through a lookup that knows them: the kit's `HOST_RESOLVE` setting, the sandbox's
 * `lookup`, `node --import conformance-kit/resolve`, /etc/hosts, curl's `--resolve`.
 */
import type { Account } from './world.js';

/** The scheme and host a client called (./origin.ts's ClientOrigin; named here without importing it: no cycle). */
interface Called {
  readonly protocol: string;
  readonly host: string;
}

export const SERVER_SHAPES = ['one-origin', 'deployed'] as const;
export type ServerShape = (typeof SERVER_SHAPES)[number];

/** The label of the chat interface's host under the account domain (the live service's `amojo.amocrm.ru`). */
export const CHAT_HOST_LABEL = 'amojo';

/** The path prefix of each account's own address on the one-origin shape. */
export const ACCOUNT_PREFIX = '/_accounts';

/** Where one instance serves what: its shape and the domain its accounts' hosts sit under. */
export interface Addresses {
  readonly shape: ServerShape;
  readonly accountDomain: string;
  /**
   * On the deployed shape addressed by ports (`conformance emulator`'s default, issue 40): the port of each account's
   * own listener, by subdomain, filled once they listen. Empty when accounts are addressed by host name alone.
   */
  readonly accountPorts: Map<string, number>;
}

/** `:port` of a host[:port], or nothing. */
function portOf(host: string): string {
  const m = /:(\d+)$/.exec(host);
  return m ? `:${m[1]}` : '';
}

/** The host of a name under the account domain, on the port the client called. */
function hostUnder(addresses: Addresses, label: string, calledHost: string): string {
  return `${label}.${addresses.accountDomain}${portOf(calledHost)}`;
}

/**
 * An account's own address without its scheme, as a client that called `calledHost` reaches it:
 * `host/_accounts/<sub>` on the one-origin shape, `<sub>.<accountDomain>:port` on the deployed one (the consent
 * redirect's `referer`).
 */
export function accountHost(addresses: Addresses, calledHost: string, account: Account): string {
  if (addresses.shape !== 'deployed') return `${calledHost}${ACCOUNT_PREFIX}/${account.subdomain}`;
  const port = addresses.accountPorts.get(account.subdomain);
  // A client that came by a name under the account domain keeps to names; any other reaches the account's own port on
  // the address it called (no resolver needed).
  return port === undefined || isUnder(addresses, calledHost) ? hostUnder(addresses, account.subdomain, calledHost) : `${hostnameOf(calledHost)}:${port}`;
}

/** Whether a host[:port] is a name under the account domain. */
function isUnder(addresses: Addresses, host: string): boolean {
  return hostnameOf(host).toLowerCase().endsWith(`.${addresses.accountDomain.toLowerCase()}`);
}

/** The host of a host[:port] (a bracketed IPv6 literal kept whole). */
function hostnameOf(host: string): string {
  return host.replace(/:\d+$/, '');
}

/** An account's own `{base_url}`, as a client that called `called` reaches it. */
export function accountAddress(addresses: Addresses, called: Called, account: Account): string {
  return `${called.protocol}://${accountHost(addresses, called.host, account)}`;
}
