/**
 * The emulator's public API: a strict reference implementation of the service, started in-process on one port.
 * `env()` describes it with the docs/design.md §4 keys so a remote run can target it like any other server.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { arrivedOnAccountPort, arrivedOnChatPort, chatPortOpened } from './account-address.js';
import { EMULATOR_EFFECT_WINDOW_MS } from '../effect-window.js';
import type { FaultSwitches } from './faults.js';
import type { VariationSwitches } from './variations.js';
import { signingKeys } from './oauth/jwt.js';
import { buildEmulator } from './server.js';
import { applyKeptState, readKeptState, StateKeeper } from './state-file.js';
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
  /**
   * The domain each account's host sits under, `<subdomain>.<accountDomain>` (default `sandbox.localhost`; the same as
   * `https.accountDomain`). Given, the deployed shape is addressed by these names (`env()` names them, with the
   * `HOST_RESOLVE` that points them here), as for a client that hard-codes the service's domain. Not given, the deployed
   * shape gives each account and the chat interface a port of its own on the listen address, which every client
   * reaches with no resolver (issue 40), and still answers the names on the instance's port.
   */
  accountDomain?: string;
  /**
   * The ports of the accounts' and the chat interface's own listeners on the deployed shape addressed by ports, by
   * subdomain and `chat` (default: free ones). A state file keeps them (`state`), so the printed settings survive a
   * restart.
   */
  ownPorts?: Readonly<Record<string, number>>;
  /**
   * A file that keeps the sandbox across restarts (./state-file.ts): subdomains, ids, secrets, credentials, channels,
   * records, ports and the printed settings. Loaded at start when it exists (then `seed` is not read), written on
   * change and at close; a control reset returns to the state loaded.
   */
  state?: string;
}

/** The printed settings of a kept state (`EmulatorOptions.state`). */
export interface KeptSettings {
  readonly path: string;
  /** The settings kept from an earlier start; undefined at the first. */
  settings(): Readonly<Record<string, string>> | undefined;
  /** Keeps the settings made at the first start in the file. */
  keepSettings(settings: Readonly<Record<string, string>>): Promise<void>;
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
  /** The ports of the accounts' and the chat interface's own listeners (by subdomain and `chat`); empty when addressed by name. */
  readonly ownPorts: Readonly<Record<string, number>>;
  /**
   * The line /etc/hosts needs for the accounts' and the chat interface's names (`127.0.0.1 <sub> ... amojo.<domain>`),
   * for a client that resolves them with the system's resolver; undefined when they are addressed by port.
   */
  hostsLine(): string | undefined;
  /** The docs/design.md §4 keys for a remote run against this instance. */
  env(): Record<string, string>;
  /** With `state`: its file, the settings kept there from an earlier start, and the way to keep them. */
  readonly kept: KeptSettings | undefined;
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
  const askedHttps = options.https === true ? {} : options.https || undefined;
  const namedDomain = options.accountDomain ?? askedHttps?.accountDomain;
  const httpsOptions = askedHttps && (namedDomain === undefined ? askedHttps : { ...askedHttps, accountDomain: namedDomain });
  const loaded = options.state === undefined ? undefined : await readKeptState(options.state);
  let keeper: StateKeeper | undefined;
  const tls = httpsOptions ? await tlsMaterial(host, httpsOptions) : undefined;
  const accountDomain = tls?.accountDomain ?? namedDomain ?? DEFAULT_ACCOUNT_DOMAIN;
  const built = await buildEmulator({
    ...(loaded && { world: loaded.world }),
    ...(options.state !== undefined && { onChange: () => keeper?.changed() }),
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
  if (loaded) applyKeptState(built.ctx, loaded);
  if (options.state !== undefined) keeper = new StateKeeper(built.ctx, options.state, loaded);
  const keptPorts = options.ownPorts ?? loaded?.ownPorts;
  try {
    // A free port asked for again takes the kept state's, so its printed settings stay.
    await built.app.listen({ host, port: options.port === 0 || options.port === undefined ? keptPorts?.root ?? 0 : options.port });
  } catch (err) {
    await tls?.dispose();
    throw err;
  }
  const { port } = built.app.server.address() as AddressInfo;
  const scheme = tls ? 'https' : 'http';
  const url = `${scheme}://${urlHost(host)}:${port}`;
  built.setBaseUrl(url);

  const { ctx } = built;
  const { integration, account, admin, channel, otherAccounts } = ctx.world;
  const deployed = options.shape === 'deployed';
  // The deployed shape without a named domain: each account and the chat interface at a port of its own, an origin
  // any client reaches as printed, with no resolver (glibc does not resolve `*.localhost`).
  const byPorts = deployed && namedDomain === undefined;
  const listeners: Array<{ port: number; close(): Promise<void> }> = [];
  const closeListeners = () => Promise.all(listeners.map((l) => l.close()));
  const ownPorts: Record<string, number> = {};
  try {
    if (byPorts) {
      for (const a of [account, ...otherAccounts]) {
        const own = await listenBeside(built.app, host, keptPorts?.[a.subdomain] ?? 0, tls, (req) => arrivedOnAccountPort(req, a));
        listeners.push(own);
        ownPorts[a.subdomain] = own.port;
        ctx.addresses.accountPorts.set(a.subdomain, own.port);
      }
    }
  } catch (err) {
    await closeListeners();
    await built.app.close();
    await tls?.dispose();
    throw err;
  }
  // The chat interface on a port of its own: by ports, or under the `chat-origin-own-port` variation (read at start: a
  // port is opened once), which also makes that port its one address.
  const ownChatPort = deployed && ctx.variations.isOn('chat-origin-own-port');
  let chatPort: { port: number; close(): Promise<void> } | undefined;
  try {
    chatPort = byPorts || ownChatPort ? await listenBeside(built.app, host, keptPorts?.chat ?? 0, tls, arrivedOnChatPort) : undefined;
  } catch (err) {
    await closeListeners();
    await built.app.close();
    await tls?.dispose();
    throw err;
  }
  if (chatPort) listeners.push(chatPort);
  if (chatPort && byPorts) ownPorts.chat = chatPort.port;
  if (ownChatPort) chatPortOpened(ctx);
  if (keeper) {
    keeper.setOwnPorts({ root: port, ...ownPorts });
    await keeper.flush();
  }
  // A second account's own address, and an account where the administrator is only a member (settings a staging
  // account supplies by hand: BASE_URL_2, MEMBER_ACCOUNT).
  const secondAccount = otherAccounts.find((a) => a.adminRole === 'administrator');
  const memberAccount = otherAccounts.find((a) => a.adminRole === 'member');
  let closing: Promise<void> | undefined;
  // The address a client connects to, an IPv6 literal without its brackets.
  const listenAddress = urlHost(host).replace(/^\[|\]$/g, '');
  // Port 443 over https (80 over http) is left out of a URL, as a client that hard-codes the domain writes it.
  const portPart = port === (tls ? 443 : 80) ? '' : `:${port}`;
  const hostUrl = (label: string) => `${scheme}://${label}.${accountDomain}${portPart}`;
  const portUrl = (p: number) => `${scheme}://${urlHost(host)}:${p}`;
  const chatUrl = chatPort ? portUrl(chatPort.port) : hostUrl(CHAT_HOST_LABEL);
  // An account's printed `{base_url}`: its own port, else its host name.
  const accountBase = (subdomain: string) => (ownPorts[subdomain] === undefined ? hostUrl(subdomain) : portUrl(ownPorts[subdomain]!));
  return {
    url,
    tls: tls && { ca: tls.ca, caFile: tls.caFile },
    accountUrl: (subdomain = account.subdomain) => hostUrl(subdomain),
    // An IPv6 literal without its brackets.
    lookup: lookupUnder(accountDomain, listenAddress),
    ownPorts,
    hostsLine: () => (deployed && !byPorts
      ? [listenAddress, ...[account, ...otherAccounts].map((a) => `${a.subdomain}.${accountDomain}`), `${CHAT_HOST_LABEL}.${accountDomain}`].join(' ')
      : undefined),
    faults: ctx.faults,
    variations: ctx.variations,
    env: () => {
      return {
        CONFORMANCE_TARGET: 'remote',
        BASE_URL: deployed ? accountBase(account.subdomain) : url,
        AUTH_URL: url,
        CHAT_URL: deployed ? chatUrl : url,
        CONTROL_URL: `${url}/_control`,
        // The accounts' and the chat interface's host names, pointed at this instance without touching /etc/hosts.
        ...(deployed && !byPorts ? { HOST_RESOLVE: `*.${accountDomain}=${listenAddress}` } : {}),
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
        ...(secondAccount ? { BASE_URL_2: deployed ? accountBase(secondAccount.subdomain) : `${url}${ACCOUNT_PREFIX}/${secondAccount.subdomain}` } : {}),
        ...(memberAccount ? { MEMBER_ACCOUNT: String(memberAccount.id) } : {}),
      };
    },
    kept: keeper && {
      path: keeper.path,
      settings: () => keeper!.settings,
      keepSettings: (settings) => keeper!.keepSettings(settings),
    },
    issuedSecrets: () => ctx.secrets.list(),
    close: () => (closing ??= (keeper?.flush() ?? Promise.resolve())
      .finally(() => Promise.all([built.app.close(), closeListeners()]).then(() => tls?.dispose()))),
  };
}

/**
 * Another listener whose requests the same instance answers, each marked first (./account-address.ts routes it): an
 * account's own port, or the chat interface's (also the `chat-origin-own-port` variation: a chat interface at an
 * origin that differs from the API's by its port alone).
 */
async function listenBeside(app: FastifyInstance, host: string, port: number, tls: { key: string; cert: string } | undefined, mark: (req: IncomingMessage) => void): Promise<{ port: number; close(): Promise<void> }> {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    mark(req);
    app.server.emit('request', req, res);
  };
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler) : createHttpServer(handler);
  server.keepAliveTimeout = app.server.keepAliveTimeout;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
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
