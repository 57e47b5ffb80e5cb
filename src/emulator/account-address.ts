/**
 * Per-account addresses ({base_url}, spec preamble: "address of one customer account; each account has its own
 * sub-domain"). One port cannot give each account a sub-domain a client resolves, so each account also gets a path
 * of its own, `/_accounts/<subdomain>`, which serves `{base_url}`'s endpoints (`/oauth2/access_token`, `/api/v4/...`)
 * for that account alone: a bearer granted in another account is refused there (src/emulator/api/bearer.ts).
 *
 * A client that builds `https://{subdomain}.<domain>` from an account's subdomain (the PHP client, amocrm-js without a
 * dot in its domain) reaches the same through the host name: a request whose Host is `<subdomain>.<accountDomain>` is
 * bound to that account as its path would bind it, and its links name that host with no path prefix.
 *
 * The instance's root address stays the kit's BASE_URL and keeps serving a token of any of the administrator's
 * accounts: the rules that read several accounts through one BASE_URL rely on it (a staging run names one address).
 */
import type { IncomingMessage } from 'node:http';
import type { EmulatorContext } from './context.js';
import { allAccounts } from './oauth/lifecycle.js';
import { calledHost } from './origin.js';
import type { Account } from './world.js';

export const ACCOUNT_PREFIX = '/_accounts';

/** What `{base_url}` serves: the token endpoint and the account API. Anything else under a prefix stays a 404. */
const SERVED = /^\/(?:api\/v4(?:[/?]|$)|oauth2\/access_token(?:[/?]|$))/;

/** The account whose address each request called; requests to the root address have none. */
const BOUND = new WeakMap<IncomingMessage, Account>();
/** Requests bound through `/_accounts/<subdomain>` rather than through their host name. */
const BY_PATH = new WeakSet<IncomingMessage>();

/**
 * The subdomain the called host names under `accountDomain` (`acme.sandbox.localhost:4010` → `acme`), if it does: the
 * host the links name too (./origin.ts), so a proxy in front that forwards it binds the same account.
 */
function hostSubdomain(req: IncomingMessage, accountDomain: string): string | undefined {
  const host = (calledHost(req.headers) ?? '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${accountDomain.toLowerCase()}`;
  if (!host.endsWith(suffix)) return undefined;
  const label = host.slice(0, -suffix.length);
  return label && !label.includes('.') ? label : undefined;
}

/**
 * Fastify's `rewriteUrl`: `/_accounts/<subdomain>/api/v4/...` is routed as `/api/v4/...`, the request remembering the
 * account it was addressed to. An unknown subdomain or an unserved path is left as is (the router answers 404).
 */
export function accountAddressRewriter(ctx: EmulatorContext, accountDomain: string): (req: IncomingMessage) => string {
  return (req) => {
    // The `api-v5-alias` variation: a newer version segment served as v4.
    const asked = req.url ?? '/';
    const url = ctx.variations.isOn('api-v5-alias') && asked.startsWith('/api/v5/') ? `/api/v4/${asked.slice('/api/v5/'.length)}` : asked;
    const byHost = hostSubdomain(req, accountDomain);
    if (byHost !== undefined) {
      const account = allAccounts(ctx).find((a) => a.subdomain === byHost);
      if (!SERVED.test(url)) return url;
      if (account) BOUND.set(req, account);
      // No account has that subdomain: answered as its path would be, 404.
      return account ? url : `${ACCOUNT_PREFIX}/${byHost}${url}`;
    }
    if (!url.startsWith(`${ACCOUNT_PREFIX}/`)) return url;
    const rest = url.slice(ACCOUNT_PREFIX.length + 1);
    const cut = rest.search(/[/?]/);
    const subdomain = cut < 0 ? rest : rest.slice(0, cut);
    const path = cut < 0 ? '/' : rest.slice(cut);
    const account = allAccounts(ctx).find((a) => a.subdomain === subdomain);
    if (!account || !SERVED.test(path)) return url;
    BOUND.set(req, account);
    BY_PATH.add(req);
    return path;
  };
}

/** The account whose own address the request called, if it called one. */
export function addressedAccount(req: IncomingMessage): Account | undefined {
  return BOUND.get(req);
}

/** The path prefix the request was addressed under: its account's path, or none (the root, or an account's host). */
export function addressPrefix(req: IncomingMessage): string {
  const account = BOUND.get(req);
  return account && BY_PATH.has(req) ? accountPath(account) : '';
}

/** The path of an account's own address under the instance's origin. */
export function accountPath(account: Account): string {
  return `${ACCOUNT_PREFIX}/${account.subdomain}`;
}
