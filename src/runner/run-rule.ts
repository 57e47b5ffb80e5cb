/**
 * Runs one rule and turns whatever happens into exactly one of the six verdicts.
 */
import type { Outcome } from '../model/outcome.js';
import { SkipRule } from '../model/outcome.js';
import type { RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import type { Masker } from '../secrets/mask.js';
import type { TargetConfig } from '../targets/config.js';
import type { ControlClient } from '../targets/control.js';
import { ControlError } from '../targets/control.js';
import type { HttpClient } from '../targets/http.js';
import type { TokenSource } from '../targets/token-source.js';
import { TokenStoreError } from '../targets/token-store.js';
import { TransportError } from '../targets/http.js';
import { RuleContext } from './context.js';
import { curlOf } from './curl.js';
import { Precondition } from './precondition.js';
import { Recorder } from './recorder.js';
import { RunResources } from './resources.js';
import { ruleSeed } from './seed.js';

export interface RuleEnvironment {
  readonly target: TargetConfig;
  readonly client: HttpClient;
  readonly control: ControlClient | undefined;
  readonly masker: Masker;
  readonly seed: number;
  readonly runs: number;
  readonly runId: string;
  /** Shared resources of the run; without them a rule gets its own, closed when it ends. */
  readonly resources?: RunResources;
  /** Access tokens from the token store, for remote targets without a control API. */
  readonly tokens?: TokenSource;
}

export function missingCapability(rule: Rule, target: TargetConfig): string | undefined {
  const missing = rule.requires.find((c) => !target.capabilities.includes(c));
  if (!missing) return undefined;
  return `requires capability \`${missing}\`: ${target.gaps?.[missing] ?? 'the target does not offer it'}`;
}

export function skippedResult(rule: Rule, reason: string): RuleResult {
  return { ...describe(rule), status: 'skipped', duration_ms: 0, detail: reason, request_count: 0 };
}

export async function runRule(rule: Rule, env: RuleEnvironment): Promise<RuleResult> {
  const gap = missingCapability(rule, env.target);
  if (gap) return skippedResult(rule, gap);

  const recorder = new Recorder(env.client, env.masker);
  const seed = ruleSeed(env.seed, rule.id);
  const ownResources = env.resources ? undefined : new RunResources();
  const resources = env.resources ?? ownResources!;
  const t = new RuleContext({ rule, target: env.target, recorder, masker: env.masker, control: env.control, seed, runs: env.runs, runId: env.runId, resources, tokens: env.tokens });
  const started = performance.now();
  let outcome: Outcome | undefined;
  let status: RuleResult['status'];
  let detail: string;
  try {
    outcome = await rule.run(t);
    status = rule.level === 'info' && outcome.verdict !== 'failed' ? 'informational' : outcome.verdict;
    detail = outcome.detail;
  } catch (err) {
    ({ status, detail } = verdictOfError(err));
  } finally {
    await ownResources?.closeAll();
  }
  // The recorder masks the exchanges it keeps; the rest is masked here, before progress lines can print it.
  const exchanges = recorder.exchanges();
  const last = exchanges.at(-1);
  const property = outcome?.property;
  const masked = env.masker.maskDeep({
    detail,
    ...(last ? { reproduction: curlOf(last.request) } : {}),
    ...(outcome && outcome.findings.length > 0 ? { findings: outcome.findings } : {}),
    ...(property ? { property: { ...property, replay: `conformance run --only '${rule.id}' --seed ${env.seed} --runs ${env.runs}` } } : {}),
  });
  return {
    ...describe(rule),
    status,
    duration_ms: Math.round(performance.now() - started),
    detail: masked.detail,
    ...(masked.reproduction ? { reproduction: masked.reproduction } : {}),
    ...(masked.findings ? { findings: masked.findings } : {}),
    exchanges,
    request_count: recorder.count,
    ...(masked.property ? { property: masked.property } : {}),
  };
}

function verdictOfError(err: unknown): { status: RuleResult['status']; detail: string } {
  if (err instanceof SkipRule) return { status: 'skipped', detail: err.reason };
  if (err instanceof TransportError) return { status: 'errored', detail: `no answer from the target: ${err.message}` };
  if (err instanceof Precondition) return { status: 'errored', detail: `precondition not met: ${err.message}` };
  if (err instanceof ControlError) return { status: 'errored', detail: err.message };
  if (err instanceof TokenStoreError) return { status: 'errored', detail: `no access token: ${err.message}` };
  const e = err as Error;
  return { status: 'errored', detail: `the kit threw: ${e?.stack?.split('\n').slice(0, 4).join(' | ') ?? String(err)}` };
}

function describe(rule: Rule): Pick<RuleResult, 'id' | 'section' | 'level' | 'requires' | 'title' | 'reading'> {
  return { id: rule.id, section: rule.section, level: rule.level, requires: rule.requires, title: rule.title, ...(rule.reading ? { reading: rule.reading } : {}) };
}
