/**
 * One run from settings to a Report: the plumbing shared by `conformance run`, the fault tests and the benchmark.
 */
import { existsSync } from 'node:fs';
import { KIT_PACKAGE } from '../paths.js';
import type { Report, RuleResult } from '../model/result.js';
import { summarize } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import { secretCredentials } from '../model/target.js';
import { SupplyPlan } from '../needs/plan.js';
import { runCredentials } from '../needs/credentials.js';
import { configurationOf } from '../configurations/detect.js';
import { SECRET_KEYS } from '../needs/settings.js';
import { Masker } from '../secrets/mask.js';
import type { TargetConfig } from '../model/target.js';
import { ControlClient } from '../targets/control.js';
import { HttpClient, type HttpClientOptions } from '../targets/http.js';
import { hostLookup } from '../host-resolve.js';
import { rateBudgets } from '../targets/rate-limit.js';
import { TokenSource } from '../targets/token-source.js';
import { TokenStore } from '../secrets/token-store.js';
import { RunResources } from './resources.js';
import type { RunResource } from '../model/context.js';
import { runSuite } from './run-suite.js';
import type { Interruption } from './interrupt.js';
import { selection, skipReason, type Shard } from './select.js';
import { readTargetAccounts } from './target-accounts.js';


/** Rules run side by side: enough to keep two cores busy against the embedded emulator. */
const LANES = 8;
/**
 * Under a rate limit a rule mostly waits for its slot or for an effect, and a lane that waits costs nothing: more
 * lanes keep every slot of the limits filled (a staging run's time is its requests over the rate), 24 for each of the
 * two budgets (the account API's and the chat interface's), so that rules queued on one never starve the other.
 */
const RATE_LIMITED_LANES = 48;

export interface RunPlan {
  readonly target: TargetConfig;
  /** How the run supplies the rules' needs (src/needs/plan.ts); default: the plan of `target` as it is. */
  readonly supply?: SupplyPlan;
  readonly rules: readonly Rule[];
  readonly seed: number;
  readonly runs: number;
  readonly only?: string;
  /** Rules left out of the run (--exclude, the syntax of --only): like those --only does not select, not in the report's results. */
  readonly exclude?: string;
  readonly shard?: Shard;
  /** Rules a --budget left out, with why (src/runner/budget.ts). */
  readonly leftOut?: ReadonlyMap<string, string>;
  readonly concurrency?: number;
  /** Recorded in the report for the reader: profile, strict, and the like. */
  readonly options?: Record<string, unknown>;
  readonly onResult?: (result: RuleResult) => void;
  /** Secrets the run must mask beyond the target's credentials (e.g. the emulator's). */
  readonly masker?: Masker;
  /** The run's id, which every record it creates carries (default: a new one, newRunId); the caller's when it locked the target with it. */
  readonly runId?: string;
  /** The run's HTTP client, when the caller already made one (its rate limit then covers the caller's requests too). */
  readonly client?: HttpClient;
  /** A signal's stop (src/runner/interrupt.ts): the report then lists what did not run and is marked incomplete. */
  readonly interruption?: Interruption;
  /**
   * Resources the caller lends the run, by key (`browser`: a SharedBrowser launched as the target's options would
   * launch it), each opened by its function on first ask; the caller closes them, never the run.
   */
  readonly lent?: Readonly<Record<string, () => Promise<RunResource>>>;
  /** Read the account the target says it is before any rule (report.json target.accounts, which a certificate binds). */
  readonly readAccounts?: boolean;
}

/** The client a run against this target uses: a rate budget per interface, as the target's settings say. */
export function clientFor(target: TargetConfig): HttpClient {
  return new HttpClient(clientOptionsFor(target));
}

/** The client options a target's settings give: its rate budgets, the host names it resolves itself, the CAs it trusts. */
export function clientOptionsFor(target: TargetConfig): HttpClientOptions {
  return { budgets: rateBudgets(target), ...(target.hostRules ? { lookup: hostLookup(target.hostRules) } : {}), ...(target.ca ? { ca: target.ca } : {}), ...(target.proxy ? { proxy: target.proxy } : {}) };
}

export function maskerFor(target: TargetConfig): Masker {
  const masker = new Masker();
  for (const secret of secretCredentials(target.credentials)) masker.add(secret);
  for (const key of SECRET_KEYS) masker.add(target.settings?.[key]);
  return masker;
}

/** Remote targets without a control API take their access tokens from the token store, when there is one. */
function tokenSourceFor(target: TargetConfig, client: HttpClient, masker: Masker): TokenSource | undefined {
  if (target.controlUrl || !target.tokenStore) return undefined;
  if (!existsSync(target.tokenStore) && !target.credentials.refreshToken) return undefined;
  return new TokenSource(new TokenStore(target.tokenStore), target, client, masker);
}

/** A run's id: its seed and start, which the names of the records it creates carry (`conformance clean` finds them by it). */
export function newRunId(seed: number): string {
  return `run-${seed.toString(36)}-${Date.now().toString(36)}`;
}

export async function executeRun(settings: RunPlan): Promise<Report> {
  const { target } = settings;
  const masker = settings.masker ?? maskerFor(target);
  const client = settings.client ?? clientFor(target);
  const control = target.controlUrl ? new ControlClient(target.controlUrl, client, masker, target.credentials.clientId) : undefined;
  const tokens = tokenSourceFor(target, client, masker);
  const startedAt = new Date().toISOString();
  const runId = settings.runId ?? newRunId(settings.seed);
  const resources = new RunResources(new Map(Object.entries(settings.lent ?? {})));
  try {
  const rateLimited = Boolean(target.rateLimitRps || target.chatRateLimitRps);
    // Rules --only or --exclude leave out are not part of the run: not run, not counted as skipped (report.not_selected).
    const chosen = selection({ ...(settings.only ? { only: settings.only } : {}), ...(settings.exclude ? { exclude: settings.exclude } : {}) });
    const notSelected = settings.rules.filter((r) => !chosen(r)).map((r) => r.id);
    const plan = settings.supply ?? new SupplyPlan(target);
    const env = { target, plan, client, control, masker, seed: settings.seed, runs: settings.runs, runId, resources, ...(tokens ? { tokens } : {}) };
    const accounts = settings.readAccounts ? await readTargetAccounts(env) : undefined;
    const results = await runSuite(
      env,
      {
        rules: settings.rules.filter(chosen),
        skip: skipReason({
          ...(settings.only ? { only: settings.only } : {}),
          ...(settings.exclude ? { exclude: settings.exclude } : {}),
          ...(settings.shard ? { shard: settings.shard } : {}),
          ...(settings.leftOut ? { leftOut: settings.leftOut } : {}),
        }, settings.rules),
        concurrency: settings.concurrency ?? (rateLimited ? RATE_LIMITED_LANES : LANES),
        laneByInterface: rateLimited,
        ...(settings.onResult ? { onResult: settings.onResult } : {}),
        ...(settings.interruption ? { interruption: settings.interruption } : {}),
      },
    );
    const interruption = settings.interruption?.record();
    // Once more over the whole report, with every secret the run learned, including those learned after a rule ended.
    return masker.maskDeep({
      suite: { name: KIT_PACKAGE.name, version: KIT_PACKAGE.version },
      target: { kind: target.kind, base_url: target.baseUrl, chat_url: target.chatUrl, auth_url: target.authUrl, ...(target.controlUrl ? { control_url: target.controlUrl } : {}),
        // Every configured origin (a certificate binds them): the second account's address too, when set.
        ...(target.credentials.baseUrl2 ? { base_url_2: target.credentials.baseUrl2 } : {}),
        capabilities: target.capabilities, ...(accounts ? { accounts } : {}) },
      seed: settings.seed,
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      summary: summarize(results),
      results,
      options: { runs: settings.runs, ...(settings.only ? { only: settings.only } : {}), ...(settings.exclude ? { exclude: settings.exclude } : {}), ...(settings.shard ? { shard: `${settings.shard.index}/${settings.shard.count}` } : {}), ...settings.options },
      request_count: results.reduce((n, r) => n + (r.request_count ?? 0), 0),
      ...(interruption ? { incomplete: true, interruption } : {}),
      ...(notSelected.length > 0 ? { not_selected: notSelected } : {}),
      configuration: configurationOf(plan),
      credentials: runCredentials(plan),
    } satisfies Report);
  } finally {
    await resources.closeAll();
    if (!settings.client) await client.close();
  }
}
