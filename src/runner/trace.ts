/**
 * The kit's requests attributed to their senders (src/rule-scope.ts): a rule's attempt, or a run resource's
 * opener, whose requests belong to every rule that shares the resource.
 *
 * - `ObservingClient`: the run's client, telling an observer of every exchange with its sender (a comparison's
 *   capture, src/compare/capture.ts; the trace below).
 * - `traceRun`: one quick run against two emulators in this thread (the main instance and the sandbox), healthy,
 *   every request tagged with its sender as it goes out (undici's, the early-answer client's, the browser's) and every
 *   question the emulator's variation switches are asked attributed to the sender of the request being answered.
 *   It tells which places of the protocol each rule reaches (the places table: docs/requirements.md) and which rules
 *   can observe each allowed variation (test/variations: a request that never asks about a variation is answered alike
 *   with it on or off, so only the rules that asked can observe it). Rules do not declare where they send; what they
 *   send is the one truth of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Report } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import { targetFromEnv } from '../targets/from-env.js';
import { HttpClient, type HttpClientOptions } from '../targets/http.js';
import { clientOptionsFor, executeRun } from './execute.js';
import { currentSender, resourceAsked, SENDER_HEADER, senderHeader, senderKey, senderOfKey, sendersOfHeader, tagRequests, type Sender } from '../rule-scope.js';

/** The seed of the traced run: any fixed one, so that the same rules give the same trace (and the variations' runs repeat its cases). */
export const TRACE_SEED = 20261126;

/** One exchange as sent and answered, with who sent it; not masked. */
export interface SentExchange {
  /** Undefined: the run's own set-up (control resets, the reachability probe). */
  readonly sender: Sender | undefined;
  readonly request: HttpRequest;
  readonly response?: HttpResponse;
  /** No answer: the transport's reason. */
  readonly error?: string;
  readonly durationMs: number;
  /** When it was sent (performance.now()), to tell exchanges sent side by side from exchanges sent one after another. */
  readonly startedMs: number;
}

/** Sends as the run's own client would (rate budgets, 429 retries) and tells `observe` of every exchange, once ended. */
export class ObservingClient extends HttpClient {
  constructor(options: HttpClientOptions, private readonly observe: (exchange: SentExchange) => void) {
    super(options);
  }

  override async send(req: HttpRequest): Promise<HttpResponse> {
    const sender = currentSender();
    const startedMs = performance.now();
    try {
      const response = await super.send(req);
      this.observe({ sender, request: req, response, durationMs: response.durationMs, startedMs });
      return response;
    } catch (err) {
      this.observe({ sender, request: req, error: (err as Error).message, durationMs: performance.now() - startedMs, startedMs });
      throw err;
    }
  }
}

/** Which places one exchange reached (src/protocol/places.ts `placesOf`; the runner knows no protocol). */
export type PlacesOf = (req: HttpRequest, res: HttpResponse) => readonly string[];

export interface RunTrace {
  /** The healthy run itself. */
  readonly report: Report;
  /** Rule id → the places its own requests reached (not a shared resource's set-up); both sorted, a stable file. */
  readonly places: Record<string, readonly string[]>;
  /**
   * Rule id → each case it named (`inCase`: a kind of credential, a handle) → the places that case's requests reached;
   * only rules that name cases, sorted. The places table asks each case of a statement to reach each place.
   */
  readonly cases: Record<string, Record<string, readonly string[]>>;
  /**
   * Variation → the rules whose requests asked about it, or the set-up of a resource they share (sorted), or
   * `'every rule'` when a request no sender tagged asked.
   */
  readonly variations: Record<string, readonly string[] | 'every rule'>;
  /** Variation asked by untagged requests → a few of those requests (`METHOD /path`), to tell why it reaches every rule. */
  readonly untagged: Record<string, readonly string[]>;
}

export interface TraceOptions {
  readonly rules: readonly Rule[];
  readonly seed: number;
  readonly runs: number;
  readonly placesOf: PlacesOf;
}

const UNTAGGED_SHOWN = 5;

export async function traceRun(o: TraceOptions): Promise<RunTrace> {
  // Loaded here: the command line loads the emulator only when it traces.
  const { startEmulator } = await import('../emulator/index.js');
  const reached = new Map<string, Set<string>>();
  const reachedByCase = new Map<string, Map<string, Set<string>>>();
  const asked = new Map<string, Set<string>>();
  const untagged = new Map<string, Set<string>>();
  // Who asked for each resource: rules, or the opener of another resource (the browser context asks for the browser).
  const askers = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, value: string) => map.set(key, (map.get(key) ?? new Set()).add(value));

  const answering = new AsyncLocalStorage<{ senders: readonly string[]; request: string }>();
  const onAsked = (variation: string) => {
    const now = answering.getStore();
    if (now && now.senders.length > 0) return void now.senders.forEach((sender) => add(asked, variation, sender));
    const shown = untagged.get(variation) ?? new Set();
    if (shown.size < UNTAGGED_SHOWN) shown.add(now?.request ?? '(no request)');
    untagged.set(variation, shown);
  };
  const onResourceAsked = (message: unknown) => {
    const sender = currentSender();
    if (sender) add(askers, (message as { key: string }).key, senderKey(sender));
  };
  const tagUndici = (message: unknown) => {
    for (const [name, value] of Object.entries(senderHeader())) (message as { request: { addHeader(name: string, value: string): void } }).request.addHeader(name, value);
  };
  // Published synchronously before the server emits `request`: the handler (fastify keeps the scope through body
  // parsing) runs inside the scope entered here.
  const enterRequest = (message: unknown) => {
    const request = (message as { request: IncomingMessage }).request;
    answering.enterWith({ senders: sendersOfHeader(request.headers[SENDER_HEADER]), request: `${request.method} ${request.url?.replace(/\?.*/, '')}` });
  };

  const emulators = await Promise.all([startEmulator({ seed: o.seed }), startEmulator({ seed: o.seed })]);
  const unwatch = emulators.map((e) => e.variations.watch(onAsked));
  const untag = tagRequests();
  subscribe('undici:request:create', tagUndici);
  subscribe('http.server.request.start', enterRequest);
  resourceAsked.subscribe(onResourceAsked);
  const [main, sandbox] = emulators.map((e) => targetFromEnv(e.env(), 'emulator'));
  const target = { ...main!, sandbox: sandbox! };
  const client = new ObservingClient(clientOptionsFor(target), (x) => {
    // A rule reaches what it sends itself: a shared resource's set-up is checked by its opener, for no rule in particular.
    if (x.sender === undefined || !('rule' in x.sender) || x.response === undefined) return;
    const places = o.placesOf(x.request, x.response);
    for (const place of places) add(reached, x.sender.rule, place);
    if (x.sender.case === undefined) return;
    const cases = reachedByCase.get(x.sender.rule) ?? new Map<string, Set<string>>();
    reachedByCase.set(x.sender.rule, cases);
    // A case's request that reached no place still makes it a case of the rule (one that reaches nothing).
    if (!cases.has(x.sender.case)) cases.set(x.sender.case, new Set());
    for (const place of places) add(cases, x.sender.case, place);
  });
  try {
    const report = await executeRun({ target, rules: o.rules, seed: o.seed, runs: o.runs, client });
    const rulesOf = rulesOfSender(askers);
    const byRule = (senders: ReadonlySet<string>) => [...new Set([...senders].flatMap(rulesOf))].sort();
    return {
      report,
      places: sortedSets(reached),
      cases: Object.fromEntries([...reachedByCase].sort(([a], [b]) => a.localeCompare(b)).map(([rule, cases]) => [rule, sortedSets(cases)])),
      variations: Object.fromEntries([...new Set([...asked.keys(), ...untagged.keys()])].sort().map((v) => [v, untagged.has(v) ? 'every rule' : byRule(asked.get(v)!)])),
      untagged: Object.fromEntries([...untagged].sort(([a], [b]) => a.localeCompare(b)).map(([v, set]) => [v, [...set]])),
    };
  } finally {
    resourceAsked.unsubscribe(onResourceAsked);
    unsubscribe('undici:request:create', tagUndici);
    unsubscribe('http.server.request.start', enterRequest);
    untag();
    for (const stop of unwatch) stop();
    await client.close();
    await Promise.all(emulators.map((e) => e.close()));
  }
}

/** A map of sets as a stable object: keys and members sorted. */
function sortedSets(map: ReadonlyMap<string, ReadonlySet<string>>): Record<string, readonly string[]> {
  return Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)).map(([key, set]) => [key, [...set].sort()]));
}

/** The rules a sender stands for: a rule itself; a resource, every rule that asked for it, through other resources too. */
function rulesOfSender(askers: ReadonlyMap<string, ReadonlySet<string>>): (sender: string) => string[] {
  return (sender) => {
    const rules = new Set<string>();
    const seen = new Set<string>();
    const visit = (s: string) => {
      if (seen.has(s)) return;
      seen.add(s);
      const sender = senderOfKey(s);
      if ('rule' in sender) rules.add(sender.rule);
      else for (const asker of askers.get(sender.resource) ?? []) visit(asker);
    };
    visit(sender);
    return [...rules];
  };
}
