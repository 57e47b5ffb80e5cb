/**
 * The comparison of two servers answer by answer (Diffy's design: primary, secondary, candidate). The suite runs with
 * one seed against the primary, against the primary again (the secondary: what differs between those two is noise),
 * and against the candidate; exchanges are paired by rule, endpoint and occurrence, their answers compared, and a
 * difference between primary and candidate is reported unless the same place differed between primary and secondary.
 */
import { KIT_PACKAGE } from '../paths.js';
import { neverRan, type RuleResult } from '../model/result.js';
import type { TargetConfig } from '../model/target.js';
import type { SupplyPlan } from '../needs/plan.js';
import { compareAnswers, inputOf, NAMED_NOISE, type RawDifference } from './answers.js';
import { captureRun, type Capture, type CapturedExchange, type CaptureOptions } from './capture.js';
import { endpointOf, normalizerFor, type Normalize } from './normalize.js';
import { DIFFERENCE_CLASSES, STANDINGS, type AnswerSide, type ComparisonReport, type Difference, type DifferenceClass, type NoisePlace, type Standing, type TargetDescription } from './types.js';

/** Shown of each body in an example: enough to see the difference, not a whole list page. */
const EXAMPLE_BODY = 2_000;
/** Where a rule's own verdict and duration are compared: no endpoint. */
const RULE_PLACE = '(rule)';
/**
 * A rule's time differs only when it is 8 s longer and twice as long, and longer by more than `noiseFactor` times what
 * it moved between the primary and the secondary runs: a whole rule's time moves by seconds with the machine's load
 * and the first run's cold start, which is noise, not a finding.
 */
const RULE_TIMING = { minDeltaMs: 8_000, minRatio: 2, noiseFactor: 3 } as const;
/** Verdicts that satisfy a rule: passed, or (an `info` rule) recorded. */
const SATISFIED: ReadonlySet<string> = new Set(['passed', 'informational']);

/** A server to run against: started afresh for each run (the embedded emulator), or the same server again (remote). */
export interface TargetSource {
  readonly label: string;
  start(): Promise<StartedTarget>;
}

export interface StartedTarget {
  readonly config: TargetConfig;
  readonly supply?: SupplyPlan;
  close(): Promise<void>;
}

/** What each of the runs is: the same rules, seed and cases against every server. */
export type RunShape = Omit<CaptureOptions, 'target' | 'supply'>;

export interface CompareOptions extends RunShape {
  readonly primary: TargetSource;
  readonly candidate: TargetSource;
  /** The server whose differences from the primary are noise; default: the primary again. */
  readonly secondary?: TargetSource;
  /** How many secondary runs learn the noise (default 1). */
  readonly noiseRuns?: number;
  /** Told when each run starts and ends, for progress lines. */
  readonly log?: (line: string) => void;
}

export async function captureOn(source: TargetSource, o: RunShape): Promise<Capture> {
  const started = await source.start();
  try {
    return await captureRun({
      target: started.config, rules: o.rules, seed: o.seed, runs: o.runs,
      ...(started.supply ? { supply: started.supply } : {}),
      ...(o.only ? { only: o.only } : {}),
      ...(o.options ? { options: o.options } : {}),
    });
  } finally {
    await started.close();
  }
}

export async function compareTargets(o: CompareOptions): Promise<ComparisonReport> {
  const startedAt = new Date().toISOString();
  const log = o.log ?? (() => {});
  const secondary = o.secondary ?? o.primary;
  const run = async (source: TargetSource, role: string) => {
    log(`${role}: ${source.label}`);
    const capture = await captureOn(source, o);
    log(`${role}: ${capture.report.request_count ?? 0} requests, ${[...capture.exchanges.values()].reduce((n, l) => n + l.length, 0)} compared`);
    return capture;
  };
  // The secondary runs first: a first run is slower (caches, compilation, Chromium's first start), and that is noise
  // the secondary shows, not a difference between primary and candidate, which both run warm.
  const secondaries: Capture[] = [];
  for (let i = 0; i < (o.noiseRuns ?? 1); i += 1) secondaries.push(await run(secondary, 'secondary'));
  const primary = await run(o.primary, 'primary');
  const candidate = await run(o.candidate, 'candidate');
  return {
    ...compareCaptures(primary, candidate, secondaries),
    seed: o.seed,
    options: { runs: o.runs, ...(o.only ? { only: o.only } : {}), noise_runs: secondaries.length, ...o.options },
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    primary: describe(o.primary, primary),
    candidate: describe(o.candidate, candidate),
    secondary: describe(secondary, secondaries[0] ?? primary),
  };
}

function describe(source: TargetSource, capture: Capture): TargetDescription {
  return { label: source.label, kind: capture.report.target.kind, base_url: capture.report.target.base_url };
}

/** One run prepared for pairing: its results by rule, and each rule's exchanges by endpoint and occurrence. */
interface Side {
  readonly capture: Capture;
  readonly normalize: Normalize;
  readonly results: ReadonlyMap<string, RuleResult>;
}

function sideOf(capture: Capture): Side {
  return { capture, normalize: normalizerFor(capture.target, capture.masker), results: new Map(capture.report.results.map((r) => [r.id, r])) };
}

/**
 * A rule's exchanges keyed `<endpoint> #<n>`: the n-th call of that endpoint in the rule. Calls of one endpoint sent
 * side by side (each sent before the one before it was answered: a race, a burst) have no order of their own, and
 * which of them wins is the server's to decide: among them, n follows the answers (status, then body), so that the
 * winner of one race is paired with the winner of the other.
 */
function keyed(list: readonly CapturedExchange[], normalize: Normalize): Map<string, { endpoint: string; exchange: CapturedExchange }> {
  const byEndpoint = new Map<string, CapturedExchange[]>();
  const sent = [...list].sort((x, y) => (x.startedMs ?? 0) - (y.startedMs ?? 0));
  for (const exchange of sent) {
    const endpoint = endpointOf(exchange.request.method, exchange.request.url, normalize);
    byEndpoint.set(endpoint, [...(byEndpoint.get(endpoint) ?? []), exchange]);
  }
  const out = new Map<string, { endpoint: string; exchange: CapturedExchange }>();
  for (const [endpoint, calls] of byEndpoint) {
    let n = 0;
    for (const group of sideBySide(calls)) {
      for (const exchange of group.sort((x, y) => answerOrder(x).localeCompare(answerOrder(y)))) out.set(`${endpoint} #${(n += 1)}`, { endpoint, exchange });
    }
  }
  return out;
}

/** Runs of calls in the order sent, each call in the run of the one before when it was sent before that run's last answer. */
function sideBySide(calls: readonly CapturedExchange[]): CapturedExchange[][] {
  const groups: CapturedExchange[][] = [];
  let answeredBy = Number.NEGATIVE_INFINITY;
  for (const call of calls) {
    const start = call.startedMs ?? Number.POSITIVE_INFINITY;
    if (start < answeredBy) groups.at(-1)!.push(call);
    else {
      groups.push([call]);
      answeredBy = Number.NEGATIVE_INFINITY;
    }
    answeredBy = Math.max(answeredBy, start + call.durationMs);
  }
  return groups;
}

/** How calls sent side by side are ordered: by status, then by the members of the answer (never by its values, which are the server's). */
function answerOrder(x: CapturedExchange): string {
  if (!x.response) return `no answer ${x.error ?? ''}`;
  let members = '';
  try {
    const body: unknown = JSON.parse(x.response.text);
    if (body !== null && typeof body === 'object') members = Object.keys(body).sort().join(',');
  } catch {
    members = x.response.text.length === 0 ? '' : '(text)';
  }
  return `${x.response.status} ${members}`;
}

interface Observed {
  readonly rule: string;
  readonly endpoint: string;
  readonly raw: RawDifference;
  readonly a?: CapturedExchange;
  readonly b?: CapturedExchange;
  /** The two calls paired here were not sent the same input: what their answers differ in is not the servers' doing. */
  readonly otherInput?: boolean;
}

interface Call {
  readonly key: string;
  readonly exchange: CapturedExchange;
  readonly input: string;
}

function byEndpoint(calls: ReturnType<typeof keyed>, normalize: Normalize): Map<string, Call[]> {
  const out = new Map<string, Call[]>();
  for (const [key, { endpoint, exchange }] of calls) out.set(endpoint, [...(out.get(endpoint) ?? []), { key, exchange, input: inputOf(exchange, normalize) }]);
  return out;
}

/**
 * The calls of one endpoint paired: each with the first call of the other side sent the same input (the kit generates
 * a rule's cases from the seed, and some from the run as well), then the rest in the order sent; what is left was sent
 * to one side only.
 */
function matchCalls(la: readonly Call[], lb: readonly Call[]): { paired: [Call, Call][]; onlyA: Call[]; onlyB: Call[] } {
  const used = new Set<number>();
  const paired: [Call, Call][] = [];
  const restA: Call[] = [];
  for (const x of la) {
    const j = lb.findIndex((y, i) => !used.has(i) && y.input === x.input);
    if (j >= 0) {
      used.add(j);
      paired.push([x, lb[j]!]);
    } else restA.push(x);
  }
  const restB = lb.filter((_, i) => !used.has(i));
  const n = Math.min(restA.length, restB.length);
  for (let i = 0; i < n; i += 1) paired.push([restA[i]!, restB[i]!]);
  return { paired, onlyA: restA.slice(n), onlyB: restB.slice(n) };
}

interface PairResult {
  readonly observed: Observed[];
  /** Paired exchanges per `rule|endpoint`. */
  readonly pairs: Map<string, number>;
  readonly named: Map<string, number>;
  readonly notPaired: { rule: string; primary: string; candidate: string }[];
  readonly rules: number;
}

const ran = (r: RuleResult | undefined): r is RuleResult => r !== undefined && r.status !== 'skipped';

/** Every difference between two runs, place by place, before noise is taken out. */
function pairRuns(a: Side, b: Side): PairResult {
  const observed: Observed[] = [];
  const pairs = new Map<string, number>();
  const named = new Map<string, number>();
  const notPaired: PairResult['notPaired'] = [];
  let rules = 0;
  for (const [id, ra] of a.results) {
    const rb = b.results.get(id);
    const verdict = (x: RuleResult, y: RuleResult) => observed.push({ rule: id, endpoint: RULE_PLACE, raw: { class: 'verdict', place: 'verdict', what: `${x.status} → ${y.status}`, a: `${x.status}: ${x.detail}`, b: `${y.status}: ${y.detail}` } });
    if (!ran(ra) || !ran(rb)) {
      if (ran(ra) !== ran(rb)) {
        notPaired.push({ rule: id, primary: ra.status, candidate: rb?.status ?? 'absent' });
        // Skipped for its own reason on one side (a capability, a refused step), the rule has another verdict there;
        // a rule one run did not select (--only) was compared with nothing.
        if (rb && !neverRan(ra) && !neverRan(rb)) verdict(ra, rb);
      }
      continue;
    }
    rules += 1;
    if (ra.status !== rb.status) verdict(ra, rb);
    const xa = byEndpoint(keyed(a.capture.exchanges.get(id) ?? [], a.normalize), a.normalize);
    const xb = byEndpoint(keyed(b.capture.exchanges.get(id) ?? [], b.normalize), b.normalize);
    for (const endpoint of new Set([...xa.keys(), ...xb.keys()])) {
      const { paired, onlyA, onlyB } = matchCalls(xa.get(endpoint) ?? [], xb.get(endpoint) ?? []);
      for (const [x, y] of paired) {
        pairs.set(`${id}|${endpoint}`, (pairs.get(`${id}|${endpoint}`) ?? 0) + 1);
        const same = x.input === y.input;
        const compared = compareAnswers(x.exchange, y.exchange, { a: a.normalize, b: b.normalize }, same);
        for (const [name, n] of compared.named) named.set(name, (named.get(name) ?? 0) + n);
        for (const raw of compared.differences) observed.push({ rule: id, endpoint, raw, a: x.exchange, b: y.exchange, ...(same ? {} : { otherInput: true }) });
      }
      for (const x of onlyA) observed.push({ rule: id, endpoint, raw: { class: 'exchange', place: 'exchange', what: 'sent to the primary only', a: x.key, b: '(not sent)' }, a: x.exchange });
      for (const y of onlyB) observed.push({ rule: id, endpoint, raw: { class: 'exchange', place: 'exchange', what: 'sent to the candidate only', a: '(not sent)', b: y.key }, b: y.exchange });
    }
  }
  return { observed, pairs, named, notPaired, rules };
}

/**
 * A noise place covers itself and everything under it (`body $.messages` covers `body $.messages[].text`). An endpoint
 * whose answers differed between two runs of the primary may also be called another number of times (a rule that
 * retries, or watches the clock, until an answer comes): any noise there covers an exchange sent to one side only.
 */
function covers(noise: ReadonlyMap<string, readonly string[]>, o: Observed): boolean {
  const places = noise.get(`${o.rule}|${o.endpoint}`) ?? [];
  if (o.raw.class === 'exchange' && places.length > 0) return true;
  return places.some((p) => o.raw.place === p || o.raw.place.startsWith(`${p}.`) || o.raw.place.startsWith(`${p}[`));
}

function side(capture: Capture, x: CapturedExchange | undefined, value: string): AnswerSide {
  if (!x) return { request: '(not sent)', value: capture.masker.mask(value) };
  const mask = (t: string) => capture.masker.mask(t);
  const body = x.response?.text ?? '';
  return {
    request: mask(`${x.request.method} ${x.request.url}`),
    ...(x.response ? { status: x.response.status } : {}),
    ...(x.response?.headers['content-type'] ? { content_type: x.response.headers['content-type'] } : {}),
    ...(body ? { body: mask(body.length > EXAMPLE_BODY ? `${body.slice(0, EXAMPLE_BODY)}… [${body.length - EXAMPLE_BODY} more characters]` : body) } : {}),
    ...(x.error ? { error: x.error } : {}),
    value: mask(value),
  };
}

/** Differences between primary and candidate, less the noise the secondaries showed; counted and with one example each. */
export function compareCaptures(primary: Capture, candidate: Capture, secondaries: readonly Capture[]): Omit<ComparisonReport, 'seed' | 'options' | 'started_at' | 'finished_at' | 'primary' | 'candidate' | 'secondary'> {
  const a = sideOf(primary);
  const b = sideOf(candidate);
  const noiseMap = new Map<string, string[]>();
  const noiseGroups = new Map<string, NoisePlace>();
  const noted = (o: Observed, source: NoisePlace['source'], va: string, vb: string) => {
    const key = `${source}|${o.rule}|${o.endpoint}|${o.raw.place}`;
    const known = noiseGroups.get(key);
    noiseGroups.set(key, known ? { ...known, count: known.count + 1 } : {
      rule: o.rule, endpoint: o.endpoint, class: o.raw.class, place: o.raw.place, source, count: 1,
      example: { primary: va.slice(0, 300), other: vb.slice(0, 300) },
    });
  };
  for (const s of secondaries) {
    const secondary = sideOf(s);
    for (const o of pairRuns(a, secondary).observed) {
      const at = `${o.rule}|${o.endpoint}`;
      const places = noiseMap.get(at) ?? [];
      if (!places.includes(o.raw.place)) places.push(o.raw.place);
      noiseMap.set(at, places);
      noted(o, 'secondary', primary.masker.mask(o.raw.a), s.masker.mask(o.raw.b));
    }
  }
  const paired = pairRuns(a, b);
  paired.observed.push(...ruleTimings(a, b, secondaries.map(sideOf), (o) => noted(o, 'secondary', o.raw.a, o.raw.b)));
  // The verdicts the primary server gave each rule, over every run of it: a candidate's verdict among them is noise (the
  // rule is unstable on the primary); any other is a verdict change, whatever else the secondaries differed in.
  const primaryVerdicts = new Map<string, Set<string>>();
  for (const run of [primary, ...secondaries]) {
    for (const r of run.report.results) primaryVerdicts.set(r.id, (primaryVerdicts.get(r.id) ?? new Set()).add(r.status));
  }
  const groups = new Map<string, Difference>();
  for (const o of paired.observed) {
    if (o.otherInput) {
      noted(o, 'other input', primary.masker.mask(o.raw.a), candidate.masker.mask(o.raw.b));
      continue;
    }
    if (o.raw.class === 'verdict') {
      if (secondaries.length > 0 && primaryVerdicts.get(o.rule)?.has(b.results.get(o.rule)?.status ?? 'absent')) continue;
    } else if (covers(noiseMap, o)) continue;
    const key = `${o.rule}|${o.endpoint}|${o.raw.class}|${o.raw.place}`;
    const known = groups.get(key);
    if (known) {
      groups.set(key, { ...known, count: known.count + 1 });
      continue;
    }
    const of = o.endpoint === RULE_PLACE ? 1 : o.raw.class === 'exchange'
      ? Math.max(paired.pairs.get(`${o.rule}|${o.endpoint}`) ?? 0, 0) + countAt(paired.observed, o)
      : paired.pairs.get(`${o.rule}|${o.endpoint}`) ?? 1;
    const verdicts = { primary: a.results.get(o.rule)?.status ?? 'absent', candidate: b.results.get(o.rule)?.status ?? 'absent' };
    groups.set(key, {
      rule: o.rule, endpoint: o.endpoint, class: o.raw.class, place: o.raw.place, what: o.raw.what, count: 1, of,
      primary: side(primary, o.a, o.raw.a), candidate: side(candidate, o.b, o.raw.b),
      standing: standingOf(o.raw.class, verdicts), verdicts,
    });
  }
  // What changes a verdict first, then what lies in a broken rule, then what the spec allows (Array sort is stable).
  const differences = [...groups.values()].sort((x, y) => STANDINGS.indexOf(x.standing) - STANDINGS.indexOf(y.standing));
  const byClass = Object.fromEntries(DIFFERENCE_CLASSES.map((c) => [c, differences.filter((d) => d.class === c).length])) as Record<DifferenceClass, number>;
  const endpoints = new Map<string, { differences: number; classes: Set<DifferenceClass>; rules: Set<string> }>();
  for (const d of differences) {
    const e = endpoints.get(d.endpoint) ?? { differences: 0, classes: new Set(), rules: new Set() };
    e.differences += 1;
    e.classes.add(d.class);
    e.rules.add(d.rule);
    endpoints.set(d.endpoint, e);
  }
  return {
    suite: { name: KIT_PACKAGE.name, version: KIT_PACKAGE.version },
    summary: {
      rules_compared: paired.rules,
      exchanges_compared: [...paired.pairs.values()].reduce((n, x) => n + x, 0),
      differences: differences.length,
      by_class: byClass,
      verdict_changes: byClass.verdict,
      by_standing: Object.fromEntries(STANDINGS.map((st) => [st, differences.filter((d) => d.standing === st).length])) as Record<Standing, number>,
      noise_places: noiseGroups.size,
      named_noise: Object.fromEntries(NAMED_NOISE.map((n) => [n.name, paired.named.get(n.name) ?? 0])),
    },
    differences,
    by_endpoint: [...endpoints].map(([endpoint, e]) => ({ endpoint, differences: e.differences, classes: DIFFERENCE_CLASSES.filter((c) => e.classes.has(c)), rules: [...e.rules] }))
      .sort((x, y) => y.differences - x.differences || x.endpoint.localeCompare(y.endpoint)),
    noise: [...noiseGroups.values()],
    not_paired: paired.notPaired,
  };
}

/** Exchanges sent to one side only at this rule's endpoint, for the "of" of an exchange difference. */
function countAt(observed: readonly Observed[], o: Observed): number {
  return observed.filter((x) => x.rule === o.rule && x.endpoint === o.endpoint && x.raw.class === 'exchange').length;
}

function standingOf(cls: DifferenceClass, verdicts: { readonly primary: string; readonly candidate: string }): Standing {
  if (cls === 'verdict' || verdicts.primary !== verdicts.candidate) return 'changes a verdict';
  return SATISFIED.has(verdicts.primary) ? 'allowed by the spec' : 'breaks a rule';
}

/**
 * Rules slower on the candidate by more than load explains: 8 s and twice as long, and more than `noiseFactor` times
 * the most the rule's time moved between the primary and a secondary run. A time within that is told to `asNoise`.
 */
function ruleTimings(a: Side, b: Side, secondaries: readonly Side[], asNoise: (o: Observed) => void): Observed[] {
  const out: Observed[] = [];
  for (const [id, ra] of a.results) {
    const rb = b.results.get(id);
    if (!ran(ra) || !ran(rb)) continue;
    const [da, db] = [ra.duration_ms, rb.duration_ms];
    if (Math.abs(da - db) < RULE_TIMING.minDeltaMs || Math.max(da, db) < RULE_TIMING.minRatio * Math.min(da, db)) continue;
    const spread = Math.max(0, ...secondaries.map((s) => s.results.get(id)).filter(ran).map((rs) => Math.abs(da - rs.duration_ms)));
    const o: Observed = { rule: id, endpoint: RULE_PLACE, raw: { class: 'timing', place: 'rule time', what: `the rule took ${da} ms → ${db} ms`, a: `${da} ms`, b: `${db} ms` } };
    if (Math.abs(da - db) > RULE_TIMING.noiseFactor * spread) out.push(o);
    else asNoise(o);
  }
  return out;
}
