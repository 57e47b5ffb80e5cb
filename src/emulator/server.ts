/**
 * Wiring: one fastify instance serving the token endpoint, the account API and the control API on one port, with
 * body parsing and error handling installed before any route module. Later route modules (chat §4.3, list
 * filtering §4.2, the access-granting page) are added to ROUTE_MODULES and receive the same context.
 */
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { accountAddressRewriter } from './account-address.js';
import { apiRoutes } from './api/routes.js';
import { cachedQueryParser, installBodyParsers, READ_LIMIT } from './body.js';
import { clientErrorHandler } from './client-errors.js';
import { Clock } from './clock.js';
import type { EmulatorContext, RouteOptions } from './context.js';
import { chatRoutes } from './chat/routes.js';
import { chatControlRoutes } from './control/chat.js';
import { lifecycleControlRoutes } from './control/lifecycle.js';
import { controlRoutes } from './control/routes.js';
import { listControlRoutes } from './control/lists.js';
import { installRootHandlers } from './errors.js';
import { installClockDate } from './http-date.js';
import { VariationSwitches } from './variations.js';
import { installAnswerVariations } from './answer-variations.js';
import { installLeakFaults } from './leak-faults.js';
import { FaultSwitches } from './faults.js';
import { listRoutes } from './lists/routes.js';
import { openApiRoutes } from './openapi-route.js';
import { tokenRoutes } from './oauth/token-endpoint.js';
import { pageRoutes } from './page/routes.js';
import { CredentialStore, SecretLedger } from './state.js';
import { installTrafficLog, TrafficLogs, trafficRoutes } from './traffic.js';
import { DEFAULT_ACCOUNT_DOMAIN } from './tls.js';
import { seedWorld, type World } from './world.js';
import type { ServerShape } from './shape.js';

export const ROUTE_MODULES: readonly FastifyPluginAsync<RouteOptions>[] = [tokenRoutes, apiRoutes, controlRoutes, trafficRoutes, listRoutes, listControlRoutes, chatRoutes, chatControlRoutes, pageRoutes, lifecycleControlRoutes, openApiRoutes];

export interface BuildOptions {
  readonly faults?: readonly string[];
  readonly variations?: readonly string[];
  readonly seed?: number;
  readonly logger?: boolean;
  /** See EmulatorOptions.keepAliveTimeoutMs; default 0 (never). */
  readonly keepAliveTimeoutMs?: number;
  /** Serve https with this key and certificate (./tls.ts) instead of plain http. */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** See EmulatorOptions.acceptMachineTime; default false. */
  readonly acceptMachineTime?: boolean;
  /** Each account is served at `<subdomain>.<accountDomain>` (./account-address.ts); default ./tls.ts's. */
  readonly accountDomain?: string;
  /** Where each interface is served (./shape.ts); default `one-origin`. */
  readonly shape?: ServerShape;
  /** The world of a kept state (./state-file.ts) instead of a seeded one. */
  readonly world?: World;
  /** Called after each answer to a request that may change the state (not GET or HEAD): a kept state is written. */
  readonly onChange?: () => void;
}

export interface BuiltEmulator {
  readonly app: FastifyInstance;
  readonly ctx: EmulatorContext;
  /** Called once the instance listens, so tokens and redirects name the real address. */
  setBaseUrl(url: string): void;
}

export async function buildEmulator(options: BuildOptions = {}): Promise<BuiltEmulator> {
  const keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? 0;
  if (!Number.isSafeInteger(keepAliveTimeoutMs) || keepAliveTimeoutMs < 0) {
    throw Object.assign(new RangeError(`keepAliveTimeoutMs must be a non-negative integer; got ${keepAliveTimeoutMs}`), { code: 'ERR_EMULATOR_OPTION' });
  }
  const faults = new FaultSwitches(options.faults);
  const variations = new VariationSwitches(options.variations);
  const clock = new Clock(Date.now, { acceptMachineTime: options.acceptMachineTime ?? false });
  const world = options.world ?? seedWorld(options.seed);
  const store = new CredentialStore();
  const secrets = new SecretLedger();
  const traffic = new TrafficLogs();
  secrets.add(world.integration.clientSecret);
  secrets.add(world.channel.secret);

  let baseUrl = 'http://127.0.0.1';
  const resetHooks: Array<() => void> = [];
  const baselineHooks: Array<() => void> = [];
  let baselineCredentials = store.snapshot();
  const disconnectListeners: Array<(accountId: number) => void> = [];
  const ctx: EmulatorContext = {
    clock, faults, variations, world, store, secrets, traffic,
    addresses: { shape: options.shape ?? 'one-origin', accountDomain: options.accountDomain ?? DEFAULT_ACCOUNT_DOMAIN, accountPorts: new Map() },
    baseUrl: () => baseUrl,
    onReset: (clear) => { resetHooks.push(clear); },
    onBaseline: (mark) => { baselineHooks.push(mark); },
    markBaseline() {
      baselineCredentials = store.snapshot();
      for (const mark of baselineHooks) mark();
    },
    onIntegrationDisconnected: (listener) => { disconnectListeners.push(listener); },
    integrationDisconnected: (accountId) => { for (const listener of disconnectListeners) listener(accountId); },
    reset() {
      store.restore(baselineCredentials);
      for (const clear of resetHooks) clear();
      faults.restore();
      variations.restore();
      clock.reset();
    },
  };

  // Typed as the http instance: fastify's https instance differs only in the raw server's type, which no route reads.
  const app = Fastify({
    ...(options.tls && { https: { key: options.tls.key, cert: options.tls.cert } }),
    logger: options.logger
      ? {
          // Only method and path: query strings and headers can carry codes and tokens.
          serializers: { req: (req) => ({ method: req.method, path: (req.url ?? '').split('?')[0] }) },
        }
      : false,
    // PHP-style brackets (`filter[id][0]=`) as the list endpoints of §4.2 receive them, PHP-style repeats (last wins).
    routerOptions: { querystringParser: cachedQueryParser() },
    // Each account's own address is routed like the root one, bound to that account; the shape says which hosts serve what.
    rewriteUrl: accountAddressRewriter(ctx),
    // Parsers read up to READ_LIMIT and refuse over BODY_LIMIT themselves, once the whole body is in (src/emulator/body.ts).
    bodyLimit: READ_LIMIT,
    clientErrorHandler: clientErrorHandler(clock, faults),
  }) as unknown as FastifyInstance;
  // A server that closes idle keep-alive connections itself races every client that reuses them: a proxy in front
  // (whose own idle timeout is longer) sends a request on a socket the emulator is closing and gets no answer. The
  // side that reuses a connection is the only one that can close it without that race, so by default the emulator
  // never does (fastify's default is 72 s, Node's 5 s; both lost requests behind a keep-alive reverse proxy).
  app.server.keepAliveTimeout = keepAliveTimeoutMs;
  installBodyParsers(app, faults);
  installAnswerVariations(app, variations);
  installLeakFaults(app, ctx);
  installRootHandlers(app);
  installClockDate(app, clock);
  installTrafficLog(app, traffic, variations);
  const onChange = options.onChange;
  if (onChange) app.addHook('onResponse', async (request) => { if (request.method !== 'GET' && request.method !== 'HEAD') onChange(); });
  for (const routes of ROUTE_MODULES) await app.register(routes, { ctx });
  await app.ready();

  return { app, ctx, setBaseUrl: (url) => { baseUrl = url; } };
}
