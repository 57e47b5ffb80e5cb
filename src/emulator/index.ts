/**
 * The emulator's public API: a strict reference implementation of the service, started in-process on one port.
 * `env()` describes it with the docs/design.md §4 keys so a remote run can target it like any other server.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { arrivedOnChatPort, chatPortOpened } from './account-address.js';
import { EMULATOR_EFFECT_WINDOW_MS } from '../effect-window.js';
import type { FaultSwitches } from './faults.js';
import type { VariationSwitches } from './variations.js';
import { signingKeys } from './oauth/jwt.js';
import { buildEmulator } from './server.js';
import { ACCOUNT_PREFIX, CHAT_HOST_LABEL, type ServerShape } from './shape.js';
import { DEFAULT_ACCOUNT_DOMAIN, lookupUnder, tlsMaterial, type HttpsOptions } from './tls.js';

export { FAULTS, FaultSwitches, type FaultName } from './faults.js';
export type { FaultInfo, VariationInfo } from './switches.js';
export { VARIATIONS, VariationSwitches, type VariationName } from './variations.js';
export { DEFAULT_ACCOUNT_DOMAIN, lookupUnder, type HttpsOptions } from './tls.js';
export { SERVER_SHAPES, type ServerShape } from './shape.js';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Faults switched on from the start (and restored by a control reset). Unknown names throw. */
  faults?: readonly string[];
  /** Allowed variations switched on from the start (and restored by a control reset). Unknown names throw. */
  variations?: readonly string[];
  /** Makes the non-secret world (ids, subdomain) reproducible; secrets are always random. */
  seed?: number;
  /** Off by default; when on, logs method and path only, never a secret. */
  logger?: boolean;
  /**
   * How long an idle keep-alive connection stays open before the emulator closes it. Default 0: never; the client or
   * the proxy in front closes idle connections, so none of them can send a request on a connection being closed.
   * Set one only above the idle timeout of every client and proxy in front (docs/emulator.md, "Connections").
   */
  keepAliveTimeoutMs?: number;
  /**
   * A chat request's Date current by the machine's clock is accepted too, not only one current by the emulator clock
   * (moved through the control API). Default false: the service's single clock, which the kit's own runs measure;
   * `startSandbox` turns it on, for chat clients that sign with their machine's clock (docs/sandbox.md, "The clock").
   */
  acceptMachineTime?: boolean;
  /**
   * Serve https instead of http, with a server certificate signed by a CA made for the sandbox (`tls.caFile` names
   * it). `true` takes the defaults: a fresh CA in a temporary directory, accounts at `<subdomain>.sandbox.localhost`.
   */
  https?: boolean | HttpsOptions;
  /**
   * Where each interface is served (./shape.ts, docs/emulator.md "Shapes"). `one-origin` (default): every interface on
   * one origin. `deployed`: each account at its own host `<subdomain>.<accountDomain>`, the chat interface at
   * `amojo.<accountDomain>`, the root serving the page and the control API only; `env()` then names those hosts and a
   * `HOST_RESOLVE` that points them at this instance.
   */
  shape?: ServerShape;
}

/** What a client trusts to reach an https emulator. */
export interface EmulatorTls {
  /** The CA certificate, PEM: an agent's `ca`. */
  readonly ca: string;
  /** Its path: `NODE_EXTRA_CA_CERTS`, curl's `--cacert`, PHP's `CURLOPT_CAINFO`. */
  readonly caFile: string;
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:4010 (https://... with `https`), no trailing slash. */
  readonly url: string;
  /** The CA to trust, when it serves https. */
  readonly tls: EmulatorTls | undefined;
  /**
   * An account's own address by host name, `<scheme>://<subdomain>.<accountDomain>:<port>` (the world's main account
   * when no subdomain is given). The name resolves only through a lookup that knows it (`lookupUnder`, /etc/hosts).
   */
  accountUrl(subdomain?: string): string;
  /**
   * A `dns.lookup` resolving the accounts' host names to the address it listens on, any other name as usual: an
   * agent's `lookup` (`new https.Agent({ ca, lookup })`, undici's `new Agent({ connect: { ca, lookup } })`).
   */
  readonly lookup: ReturnType<typeof lookupUnder>;
  /** The docs/design.md §4 keys for a remote run against this instance. */
  env(): Record<string, string>;
  /** Every secret it ever issued or holds, for leak checks on reports. */
  issuedSecrets(): string[];
  readonly faults: FaultSwitches;
  readonly variations: VariationSwitches;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  // Key generation is slow; doing it before listening keeps the first exchange fast.
  await signingKeys();
  const httpsOptions = options.https === true ? {} : options.https || undefined;
  const tls = httpsOptions ? await tlsMaterial(host, httpsOptions) : undefined;
  const accountDomain = tls?.accountDomain ?? DEFAULT_ACCOUNT_DOMAIN;
  const built = await buildEmulator({
    ...(tls && { tls }),
    accountDomain,
    ...(options.shape !== undefined && { shape: options.shape }),
    ...(options.faults !== undefined && { faults: options.faults }),
    ...(options.variations !== undefined && { variations: options.variations }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.logger !== undefined && { logger: options.logger }),
    ...(options.keepAliveTimeoutMs !== undefined && { keepAliveTimeoutMs: options.keepAliveTimeoutMs }),
    ...(options.acceptMachineTime !== undefined && { acceptMachineTime: options.acceptMachineTime }),
  });
  try {
    await built.app.listen({ host, port: options.port ?? 0 });
  } catch (err) {
    await tls?.dispose();
    throw err;
  }
  const { port } = built.app.server.address() as AddressInfo;
  const scheme = tls ? 'https' : 'http';
  const url = `${scheme}://${urlHost(host)}:${port}`;
  built.setBaseUrl(url);

  const { ctx } = built;
  // The `chat-origin-own-port` variation: the chat interface on a port of its own (read at start: a port is opened once).
  const chatPort = options.shape === 'deployed' && ctx.variations.isOn('chat-origin-own-port') ? await listenForChat(built.app, host, tls) : undefined;
  if (chatPort) chatPortOpened(ctx);
  const { integration, account, admin, channel, otherAccounts } = ctx.world;
  // A second account's own address, and an account where the administrator is only a member (settings a staging
  // account supplies by hand: BASE_URL_2, MEMBER_ACCOUNT).
  const secondAccount = otherAccounts.find((a) => a.adminRole === 'administrator');
  const memberAccount = otherAccounts.find((a) => a.adminRole === 'member');
  let closing: Promise<void> | undefined;
  const hostUrl = (label: string) => `${scheme}://${label}.${accountDomain}:${port}`;
  const chatUrl = chatPort ? `${scheme}://${urlHost(host)}:${chatPort.port}` : hostUrl(CHAT_HOST_LABEL);
  return {
    url,
    tls: tls && { ca: tls.ca, caFile: tls.caFile },
    accountUrl: (subdomain = account.subdomain) => hostUrl(subdomain),
    // An IPv6 literal without its brackets.
    lookup: lookupUnder(accountDomain, urlHost(host).replace(/^\[|\]$/g, '')),
    faults: ctx.faults,
    variations: ctx.variations,
    env: () => {
      const deployed = options.shape === 'deployed';
      return {
        CONFORMANCE_TARGET: 'remote',
        BASE_URL: deployed ? hostUrl(account.subdomain) : url,
        AUTH_URL: url,
        CHAT_URL: deployed ? chatUrl : url,
        CONTROL_URL: `${url}/_control`,
        // The accounts' and the chat interface's host names, pointed at this instance without touching /etc/hosts.
        ...(deployed ? { HOST_RESOLVE: `*.${accountDomain}=${urlHost(host).replace(/^\[|\]$/g, '')}` } : {}),
        // The CA of its certificate, which the kit then trusts with no NODE_EXTRA_CA_CERTS.
        ...(tls ? { CA_FILE: tls.caFile } : {}),
        // A local sandbox: no client-side ceiling (the server-side one is set through POST /_control/traffic).
        RATE_LIMIT_RPS: '0',
        // It acts before it answers: watching the full 30 s hook windows would only make runs against it slow.
        EFFECT_WINDOW_MS: String(EMULATOR_EFFECT_WINDOW_MS),
        CLIENT_ID: integration.clientId,
        CLIENT_SECRET: integration.clientSecret,
        REDIRECT_URI: integration.redirectUri,
        CHANNEL_ID: channel.id,
        CHANNEL_SECRET: channel.secret,
        CHAT_ACCOUNT_ID: account.amojoId,
        BOT_ID: channel.botId,
        MANAGER_USER_ID: String(admin.id),
        // The kit listens for the disconnect hook on a free loopback port and registers it through the control API;
        // the access-granting page is a real HTML page, so a run against a standalone emulator includes the browser rules.
        HOOK_LISTEN: '127.0.0.1:0',
        CONFORMANCE_BROWSER: '1',
        ...(secondAccount ? { BASE_URL_2: deployed ? hostUrl(secondAccount.subdomain) : `${url}${ACCOUNT_PREFIX}/${secondAccount.subdomain}` } : {}),
        ...(memberAccount ? { MEMBER_ACCOUNT: String(memberAccount.id) } : {}),
      };
    },
    issuedSecrets: () => ctx.secrets.list(),
    close: () => (closing ??= Promise.all([built.app.close(), chatPort?.close()]).then(() => tls?.dispose())),
  };
}

/**
 * A second listener whose requests the same instance answers as the chat host's (./account-address.ts), for the
 * `chat-origin-own-port` variation: a chat interface at an origin that differs from the API's by its port alone.
 */
async function listenForChat(app: FastifyInstance, host: string, tls: { key: string; cert: string } | undefined): Promise<{ port: number; close(): Promise<void> }> {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    arrivedOnChatPort(req);
    app.server.emit('request', req, res);
  };
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler) : createHttpServer(handler);
  server.keepAliveTimeout = app.server.keepAliveTimeout;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Wildcard listen addresses are not addresses a client can call; IPv6 literals need brackets in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
