/**
 * Which rules can observe each allowed variation. One healthy quick run, in this thread, is traced: every request the
 * kit sends carries the id of the rule that sent it (a header added as undici creates the request, read from the
 * runner's rule scope), the emulator answers each request inside a scope holding that id, and every question its
 * variation switches are asked (on or off) is attributed to the rule in scope. A request that never asks about a
 * variation is answered alike with it on or off, so only the rules that asked can observe it. A question asked
 * outside any rule's tagged request reaches every rule, and such a variation is run against the whole suite: a run's
 * own set-up, the browser's requests and bodies of 256 KB or more (sent through node:http to read an early answer),
 * which carry no header.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { allRules } from '../../specs/index.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Report } from '../../src/model/result.js';
import { executeRun } from '../../src/runner/execute.js';
import { currentRuleId } from '../../src/runner/rule-scope.js';
import { targetFromEnv } from '../../src/targets/from-env.js';

const RULE_HEADER = 'x-conformance-trace-rule';

export interface VariationReach {
  /** The healthy run itself (every rule, the quick profile). */
  readonly report: Report;
  /** The rules that asked about each variation, or `'every rule'` when it was asked outside any rule. */
  rulesFor(variation: string): ReadonlySet<string> | 'every rule';
}

export async function traceVariationReach(seed: number): Promise<VariationReach> {
  const answering = new AsyncLocalStorage<string | undefined>();
  const asked = new Map<string, Set<string>>();
  const askedOutsideRules = new Set<string>();
  const onAsked = (name: string) => {
    const rule = answering.getStore();
    if (rule === undefined) askedOutsideRules.add(name);
    else asked.set(name, (asked.get(name) ?? new Set()).add(rule));
  };
  const tagRequest = (message: unknown) => {
    const rule = currentRuleId();
    if (rule !== undefined) (message as { request: { addHeader(name: string, value: string): void } }).request.addHeader(RULE_HEADER, rule);
  };
  // Published synchronously before the server emits `request`: the handler (fastify keeps the scope through body
  // parsing) runs inside the scope entered here.
  const enterRequest = (message: unknown) => {
    const header = (message as { request: IncomingMessage }).request.headers[RULE_HEADER];
    answering.enterWith(typeof header === 'string' ? header : undefined);
  };

  const emulators = await Promise.all([startEmulator({ seed }), startEmulator({ seed })]);
  const unwatch = emulators.map((e) => e.variations.watch(onAsked));
  subscribe('undici:request:create', tagRequest);
  subscribe('http.server.request.start', enterRequest);
  try {
    const [main, sandbox] = emulators.map((e) => targetFromEnv(e.env(), 'emulator'));
    const report = await executeRun({ target: { ...main!, sandbox: sandbox! }, rules: allRules(), seed, runs: PROFILE_RUNS.quick });
    return {
      report,
      rulesFor: (variation) => (askedOutsideRules.has(variation) ? 'every rule' : asked.get(variation) ?? new Set()),
    };
  } finally {
    unsubscribe('undici:request:create', tagRequest);
    unsubscribe('http.server.request.start', enterRequest);
    for (const stop of unwatch) stop();
    await Promise.all(emulators.map((e) => e.close()));
  }
}
