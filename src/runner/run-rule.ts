/**
 * Runs one rule and turns whatever happens into exactly one of the six verdicts, by the one policy of
 * docs/verdicts.md: the rule's own findings, overruled by what the recorder saw in any of its exchanges (a 5xx, a
 * reset, a hang make it `failed`, `info` rules included), and `errored` only where no verdict could be reached.
 */
import { stripVTControlCharacters } from 'node:util';
import type { AccessTokens, HookInbox } from '../model/context.js';
import type { ControlApi } from '../model/control.js';
import type { Finding, Outcome } from '../model/outcome.js';
import { fail } from '../model/outcome.js';
import type { RuleResult } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { ControlError, Precondition, RateLimitedError, SkipRule, TargetAnswer, TokenStoreError, TransportError } from '../errors.js';
import type { Masker } from '../secrets/mask.js';
import type { HttpClient } from '../targets/http.js';
import { offerNeed } from '../needs/dispatch.js';
import { SupplyPlan } from '../needs/plan.js';
import { RunContext } from './context.js';
import { curlOf } from './curl.js';
import { startHookInbox } from './hooks.js';
import { Recorder, type Breach } from './recorder.js';
import { RunResources } from './resources.js';
import { ruleSeed } from './seed.js';

export interface RuleEnvironment {
  readonly target: TargetConfig;
  readonly client: HttpClient;
  readonly control: ControlApi | undefined;
  readonly masker: Masker;
  readonly seed: number;
  readonly runs: number;
  readonly runId: string;
  /** Shared resources of the run; without them a rule gets its own, closed when it ends. */
  readonly resources?: RunResources;
  /** Access tokens from the token store, for remote targets without a control API. */
  readonly tokens?: AccessTokens;
  /** The run's supply plan (src/needs/plan.ts); default: one made from the target. */
  readonly plan?: SupplyPlan;
  /** Makes the run's hook receiver; default: the kit's listener on HOOK_LISTEN, registered through the control API. */
  readonly hookInbox?: () => Promise<HookInbox>;
}

export function missingCapability(rule: Rule, target: TargetConfig): string | undefined {
  const missing = rule.requires.find((c) => !target.capabilities.includes(c));
  if (!missing) return undefined;
  return `requires capability \`${missing}\`: ${target.gaps?.[missing] ?? 'the target does not offer it'}`;
}

/**
 * Why the rule cannot run on this target, decided before it runs: a need the target cannot supply (the reason names
 * the one setting or step that would), else a missing capability.
 */
export function skipBeforeRun(rule: Rule, plan: SupplyPlan): string | undefined {
  return plan.skipReason(rule) ?? missingCapability(rule, plan.target);
}

export function skippedResult(rule: Rule, reason: string): RuleResult {
  return { ...describe(rule), status: 'skipped', duration_ms: 0, detail: stripVTControlCharacters(reason), request_count: 0 };
}

export async function runRule(rule: Rule, env: RuleEnvironment): Promise<RuleResult> {
  const plan = env.plan ?? new SupplyPlan(env.target);
  const gap = skipBeforeRun(rule, plan);
  if (gap) return skippedResult(rule, gap);

  const runs = plan.propertyRuns(rule, env.runs);
  const { credentials } = env.target;
  const recorder = new Recorder(env.client, env.masker, {
    secretKeys: [credentials.clientSecret, credentials.channelSecret, credentials.channelSecret2, credentials.v1ChannelSecret, credentials.secondClient?.clientSecret].filter((s): s is string => Boolean(s)),
    redirectUris: [credentials.redirectUri, credentials.secondClient?.redirectUri].filter((s): s is string => Boolean(s)),
  });
  const ownResources = env.resources ? undefined : new RunResources();
  const resources = env.resources ?? ownResources!;
  const t = new RunContext({
    rule, target: env.target, recorder, masker: env.masker, control: env.control, seed: ruleSeed(env.seed, rule.id), runs,
    runId: env.runId, resources, tokens: env.tokens,
    needs: (context, kind, ask) => offerNeed(context, plan, rule, kind, ask),
    hooks: () => resources.get('hook-inbox', () => (env.hookInbox ? env.hookInbox() : startHookInbox(env.target, controlOf(env)))),
  });
  const started = performance.now();
  let outcome: Outcome | undefined;
  let ended: Ended;
  try {
    outcome = await rule.run(t);
    ended = { status: rule.level === 'info' && outcome.verdict !== 'failed' ? 'informational' : outcome.verdict, detail: outcome.detail };
  } catch (err) {
    ended = verdictOfError(err, rule);
  } finally {
    await ownResources?.closeAll();
  }
  const breach = recorder.breach;
  const { status, detail, blockedBy } = breach ? { status: 'failed' as const, detail: `${describeBreach(breach)}; ${ended.detail}`, blockedBy: undefined } : ended;
  const findings: readonly Finding[] = [...(breach ? [breachFinding(breach)] : []), ...(outcome?.findings ?? [])];
  // The recorder masks the exchanges it keeps; the rest is masked here, before progress lines can print it.
  const exchanges = recorder.exchanges();
  const deciding = breach?.exchange ?? exchanges.at(-1);
  const property = outcome?.property;
  // Plain text: the browser driver's messages (Playwright's errors and call logs) carry terminal colour codes, which a
  // report, a JUnit viewer or a CI log shows as `[2m…[22m` litter.
  const masked = env.masker.maskDeep({
    detail: stripVTControlCharacters(detail),
    ...(deciding ? { reproduction: curlOf(deciding.request) } : {}),
    ...(findings.length > 0 ? { findings: findings.map((f) => ({ ...f, detail: stripVTControlCharacters(f.detail) })) } : {}),
    ...(property ? { property: { ...property, replay: `conformance run --only '${rule.id}' --seed ${env.seed} --runs ${runs}` } } : {}),
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
    ...(blockedBy ? { blocked_by: blockedBy } : {}),
  };
}

/** The hook URL is registered through the control API: without one, hook rules cannot run. */
function controlOf(env: RuleEnvironment): ControlApi {
  if (!env.control) throw new SkipRule('the target has no control API to register the hook URL (CONTROL_URL is not set)');
  return env.control;
}

const BREACH_CHECK: Record<Breach['kind'], string> = { 'server-error': 'no 5xx', reset: 'no connection reset', timeout: 'no hang', 'credential-leak': 'no credential leak' };

function describeBreach(b: Breach): string {
  const { request, response, error } = b.exchange;
  const what = b.kind === 'server-error' ? `answered ${response?.status} (a server error)`
    : b.kind === 'reset' ? `was dropped (${error})`
      : b.kind === 'timeout' ? `hung until the time limit (${error})`
        : `answered with a credential in ${b.where}`;
  return `exchange ${b.index} (${request.method} ${request.url}) ${what}`;
}

function breachFinding(b: Breach): Finding {
  const expected = b.kind === 'credential-leak' ? 'no token, code or secret where the spec puts none' : 'an answer below 500 to every request';
  return fail(BREACH_CHECK[b.kind], `expected ${expected}, observed ${describeBreach(b)}`);
}

interface Ended {
  readonly status: RuleResult['status'];
  readonly detail: string;
  readonly blockedBy?: string;
}

/**
 * A rule that threw: no verdict on its point could be reached (a reset or hang it saw is decided above), except where
 * the target's own answer to a step is what stopped it: the rule that judges that answer fails it, others are skipped
 * naming that rule.
 */
function verdictOfError(err: unknown, rule: Rule): Ended {
  if (err instanceof TargetAnswer) {
    return err.owner === rule.id
      ? { status: 'failed', detail: err.message }
      : { status: 'skipped', detail: `not judged: ${err.message} (${err.owner} judges that answer)`, blockedBy: err.owner };
  }
  if (err instanceof SkipRule) return { status: 'skipped', detail: err.reason };
  if (err instanceof TransportError) return { status: 'errored', detail: `no answer from the target: ${err.message}` };
  if (err instanceof RateLimitedError) return { status: 'errored', detail: `rate limited: ${err.message}; a 429 is never a verdict (§8), and no other answer came` };
  if (err instanceof Precondition) return { status: 'errored', detail: `precondition not met: ${err.message}` };
  if (err instanceof ControlError) return { status: 'errored', detail: err.message };
  if (err instanceof TokenStoreError) return { status: 'errored', detail: `no access token: ${err.message}` };
  const e = err as Error;
  return { status: 'errored', detail: `the kit threw: ${e?.stack?.split('\n').slice(0, 4).join(' | ') ?? String(err)}` };
}

function describe(rule: Rule): Pick<RuleResult, 'id' | 'section' | 'level' | 'requires' | 'title' | 'reading'> {
  return { id: rule.id, section: rule.section, level: rule.level, requires: rule.requires, title: rule.title, ...(rule.reading ? { reading: rule.reading } : {}) };
}
