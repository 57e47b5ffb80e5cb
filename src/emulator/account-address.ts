/**
 * Per-account addresses ({base_url}, spec preamble: "address of one customer account; each account has its own
 * sub-domain"), routed by the instance's shape (./shape.ts).
 *
 * One-origin shape: one port cannot give each account a sub-domain a client resolves, so each account also gets a
 * path of its own, `/_accounts/<subdomain>`, which serves `{base_url}`'s endpoints (`/oauth2/access_token`,
 * `/api/v4/...`) for that account alone: a bearer granted in another account is refused there (./api/bearer.ts). A
 * client that builds `https://{subdomain}.<domain>` (the PHP client, amocrm-js without a dot in its domain) reaches the
 * same through the host name. The root address keeps serving a token of any of the administrator's accounts.
 *
 * Deployed shape: an account's endpoints are served at its own origin alone, the chat interface at its own: by port
 * (each account and the chat interface on a listener of its own, `conformance emulator`'s default, which any client
 * reaches with no resolver), and by host name on the instance's port (`<subdomain>.<accountDomain>`,
 * `amojo.<accountDomain>`, for clients that build a domain; under the `chat-origin-own-port` variation the chat
 * interface at its own port alone). The root address serves neither (404), as the live service's `www` serves no
 * account's API.
 */
import type { IncomingMessage } from 'node:http';
import type { EmulatorContext } from './context.js';
import { allAccounts } from './oauth/lifecycle.js';
import { calledHost } from './origin.js';
import { ACCOUNT_PREFIX, CHAT_HOST_LABEL } from './shape.js';
import type { Account } from './world.js';


/** What `{base_url}` serves: the token endpoint and the account API. Anything else under a prefix stays a 404. */
const SERVED = /^\/(?:api\/v4(?:[/?]|$)|oauth2\/access_token(?:[/?]|$))/;
/** What an account's host also serves on the deployed shape: the live service's subdomain lookup. */
const ACCOUNT_EXTRA = /^\/oauth2\/account\/current\/subdomain(?:[?]|$)/;
/** What `{chat_url}` serves (§4.3). */
const CHAT = /^\/v2\/origin\/custom(?:[/?]|$)/;
/** A path no route serves: the router answers it 404 with the usual JSON body. */
const UNSERVED = '/_not_served_here';

/** The account whose address each request called; requests to the root address have none. */
const BOUND = new WeakMap<IncomingMessage, Account>();
/** Requests that came in on the chat interface's own port (the `chat-origin-own-port` variation, ./index.ts). */
const ON_CHAT_PORT = new WeakSet<IncomingMessage>();
/** Requests that came in on an account's own port (the deployed shape addressed by ports, ./index.ts). */
const ON_ACCOUNT_PORT = new WeakMap<IncomingMessage, Account>();
/** Instances that opened that port: the port is then the chat interface's one address, and its host label none. */
const CHAT_PORT_OPEN = new WeakSet<EmulatorContext>();
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
export function accountAddressRewriter(ctx: EmulatorContext): (req: IncomingMessage) => string {
  const { accountDomain, shape } = ctx.addresses;
  return (req) => {
    // The `api-v5-alias` variation: a newer version segment served as v4.
    const asked = req.url ?? '/';
    const url = ctx.variations.isOn('api-v5-alias') && asked.startsWith('/api/v5/') ? `/api/v4/${asked.slice('/api/v5/'.length)}` : asked;
    const byHost = hostSubdomain(req, accountDomain);
    if (shape === 'deployed') return deployedRoute(ctx, req, url, byHost);
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

/**
 * The deployed shape: each host serves its own interface and nothing else. An account's host binds its requests to
 * that account; the chat host (or the chat port, once opened) serves the chat interface; any other host (the root)
 * serves the page and the control API.
 */
function deployedRoute(ctx: EmulatorContext, req: IncomingMessage, url: string, byHost: string | undefined): string {
  // An account's own port serves that account whatever name the client called it by.
  const onPort = ON_ACCOUNT_PORT.get(req);
  if (onPort) return accountRoute(req, url, onPort);
  const chatPortOpen = CHAT_PORT_OPEN.has(ctx);
  if (ON_CHAT_PORT.has(req) || (byHost === CHAT_HOST_LABEL && !chatPortOpen)) return CHAT.test(url) ? url : `${UNSERVED}${url}`;
  if (byHost === CHAT_HOST_LABEL) return `${UNSERVED}${url}`;
  if (byHost !== undefined) return accountRoute(req, url, allAccounts(ctx).find((a) => a.subdomain === byHost));
  return SERVED.test(url) || CHAT.test(url) || url.startsWith(`${ACCOUNT_PREFIX}/`) ? `${UNSERVED}${url}` : url;
}

/** An account's own origin (its host or its port) on the deployed shape: its `{base_url}` endpoints, nothing else. */
function accountRoute(req: IncomingMessage, url: string, account: Account | undefined): string {
  if (!account || !(SERVED.test(url) || ACCOUNT_EXTRA.test(url))) return `${UNSERVED}${url}`;
  BOUND.set(req, account);
  return url;
}

/** Records that the instance opened the chat interface's own port: from then on its host label serves nothing. */
export function chatPortOpened(ctx: EmulatorContext): void {
  CHAT_PORT_OPEN.add(ctx);
}

/** Marks a request that came in on an account's own port: it is routed as that account's host's. */
export function arrivedOnAccountPort(req: IncomingMessage, account: Account): void {
  ON_ACCOUNT_PORT.set(req, account);
}

/** Marks a request that came in on the chat interface's own port: it is routed as the chat host's. */
export function arrivedOnChatPort(req: IncomingMessage): void {
  ON_CHAT_PORT.add(req);
}

/** The account whose own address the request called, if it called one. */
export function addressedAccount(req: IncomingMessage): Account | undefined {
  return BOUND.get(req);
}

/** The path prefix the request was addressed under: its account's path, or none (the root, or an account's host). */
export function addressPrefix(req: IncomingMessage): string {
  const account = BOUND.get(req);
  return account && BY_PATH.has(req) ? `${ACCOUNT_PREFIX}/${account.subdomain}` : '';
}

