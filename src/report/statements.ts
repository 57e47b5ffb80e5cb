/**
 * What a run judged (issue 37 §8): each statement of the spec's inventory (specs/requirements/) with this run's
 * judgement of it, computed from the inventory and the rule results alone, so report.json, summary.md, report.html and a
 * certificate say the same. A pure function over plain data: the caller passes the inventory (src/cli/run-statements.ts
 * binds it), so this layer needs no import of specs/.
 *
 * - `full`: every rule of the statement reached a verdict, every place it governs was reached by one of them, and the
 *   inventory names nothing its rules leave unchecked;
 * - `partial`: some rule reached a verdict; `left` names the rules, places and cases that were left, with why;
 * - `none`: no rule of it reached a verdict; `cause` and `reason` say why (a control API, a clock, an operator, a
 *   setting, the selection, no rule yet);
 * - `untestable`: no rule can observe it (the inventory's reason).
 */
import type { NotJudgedCause, Report, RuleResult, StatementJudgement } from '../model/result.js';
import { cut } from './sections.js';

/** What the inventory says of one statement (the fields of specs/requirements' Requirement this needs). */
export interface InventoryStatement {
  readonly id: string;
  readonly section: string;
  readonly level: string;
  readonly rules?: readonly string[];
  /** What the statement's rules leave unchecked, whatever the run. */
  readonly partial?: string;
  readonly untestable?: string;
  readonly gap?: string;
}

/** A place a statement governs and the statement's rules that reach it (src/docs/places.ts `placePairs`). */
export interface StatementPlace {
  readonly statement: string;
  readonly place: string;
  readonly reachedBy: readonly string[];
  /** The statement's cases that do not reach it (a kind of credential, a handle): the place is left for them. */
  readonly missing?: readonly string[];
  /** Why no rule reaches it (the statement's own words exclude it): not a place the run leaves. */
  readonly unreached?: string;
}

export interface JudgeInput {
  readonly inventory: readonly InventoryStatement[];
  readonly results: readonly RuleResult[];
  readonly places?: readonly StatementPlace[];
  /** Rules --only / --exclude left out of the run (report.not_selected). */
  readonly notSelected?: readonly string[];
  /** Rules an interrupted run did not run (report.interruption.not_run). */
  readonly notRun?: readonly string[];
}

/** The words of each cause, as a reason reads them. */
export const CAUSE_WORDS: Record<NotJudgedCause, string> = {
  control: 'needs a control API',
  clock: 'needs time to pass on the target (a control clock, or --profile soak)',
  operator: 'needs an operator at the terminal',
  browser: 'needs the browser (Chromium and ADMIN_LOGIN)',
  hook: 'needs to receive the disconnect hook (HOOK_LISTEN)',
  setting: 'needs a setting',
  'not-selected': 'not selected (--only / --exclude)',
  'other-shard': 'runs in another shard',
  budget: 'left out by --budget',
  unjudged: 'its rules reached no verdict (errored, or skipped behind a refused step)',
  'not-run': 'its rules did not run (the run was interrupted or the report holds no result for them)',
  skipped: 'its rules were skipped',
  'no-rule': 'no rule checks it yet',
};

/** The words of each judgement, as the reports write it. */
export const JUDGEMENT_WORDS: Record<StatementJudgement['judgement'], string> = {
  full: 'judged fully', partial: 'judged in part', none: 'not judged', untestable: 'untestable',
};

/** Judgements in the order summaries count them. */
export const JUDGEMENTS: readonly StatementJudgement['judgement'][] = ['full', 'partial', 'none', 'untestable'];

interface RuleUse {
  readonly id: string;
  readonly judged: boolean;
  readonly cause?: NotJudgedCause;
  readonly why?: string;
}

/** Why a skipped rule was skipped, from its skip reason (src/runner/select.ts, src/needs/plan.ts, run-rule's capability line). */
export function causeOfSkip(detail: string): NotJudgedCause {
  const text = detail.trim();
  if (/^not selected by --(only|exclude)\b/.test(text)) return 'not-selected';
  if (/^runs in another shard\b/.test(text)) return 'other-shard';
  if (/^left out by --budget\b/.test(text)) return 'budget';
  if (/^needs clock\b/.test(text)) return 'clock';
  if (/^needs operator\b/.test(text)) return 'operator';
  const capability = /^requires capability `([\w-]+)`/.exec(text)?.[1];
  if (capability === 'control' || capability === 'browser' || capability === 'hook') return capability;
  if (capability) return 'setting';
  // Only a control API gives it ("set CONTROL_URL: …", a run-time "no control API"); "set X or CONTROL_URL" is a setting.
  if (/^needs [\w-]+: set CONTROL_URL\b/.test(text) || /\bno control API\b|\bCONTROL_URL is not set\b/.test(text)) return 'control';
  if (/^needs [\w-]+:/.test(text) || /\bset [A-Z][A-Z0-9_]{2,}\b/.test(text)) return 'setting';
  return 'skipped';
}

function useOf(id: string, byId: ReadonlyMap<string, RuleResult>, notSelected: ReadonlySet<string>, notRun: ReadonlySet<string>): RuleUse {
  if (notSelected.has(id)) return { id, judged: false, cause: 'not-selected', why: 'not selected' };
  const r = byId.get(id);
  if (!r) return { id, judged: false, cause: 'not-run', why: notRun.has(id) ? 'not run: the run was interrupted' : 'not in this report' };
  if (r.status === 'errored') return { id, judged: false, cause: 'unjudged', why: `errored: ${cut(r.detail, 160)}` };
  if (r.status === 'skipped' && r.blocked_by !== undefined) return { id, judged: false, cause: 'unjudged', why: `skipped behind ${r.blocked_by}` };
  if (r.status === 'skipped') return { id, judged: false, cause: causeOfSkip(r.detail), why: cut(r.detail, 200) };
  return { id, judged: true };
}

/** Every statement of the inventory with this run's judgement, in inventory order. */
export function judgeStatements(input: JudgeInput): StatementJudgement[] {
  const byId = new Map(input.results.map((r) => [r.id, r]));
  const notSelected = new Set(input.notSelected ?? []);
  const notRun = new Set(input.notRun ?? []);
  const placesOf = new Map<string, StatementPlace[]>();
  for (const p of input.places ?? []) placesOf.set(p.statement, [...(placesOf.get(p.statement) ?? []), p]);
  return input.inventory.map((s): StatementJudgement => {
    const head = { id: s.id, section: s.section, level: s.level };
    if (s.untestable !== undefined) return { ...head, judgement: 'untestable', rules: [], reason: s.untestable };
    const ruleIds = s.rules ?? [];
    if (s.gap !== undefined || ruleIds.length === 0) {
      return { ...head, judgement: 'none', rules: [], cause: 'no-rule', reason: `${CAUSE_WORDS['no-rule']}${s.gap ? `: ${s.gap}` : ''}` };
    }
    const uses = ruleIds.map((id) => useOf(id, byId, notSelected, notRun));
    const judged = uses.filter((u) => u.judged).map((u) => u.id);
    const leftRules = uses.filter((u) => !u.judged).map((u) => `rule ${u.id}: ${u.why}`);
    if (judged.length === 0) {
      const cause = mainCause(uses);
      return { ...head, judgement: 'none', rules: [], cause, reason: CAUSE_WORDS[cause], left: leftRules };
    }
    const judgedSet = new Set(judged);
    const leftPlaces = (placesOf.get(s.id) ?? []).flatMap((p) => {
      if (p.reachedBy.length > 0 && (p.missing?.length ?? 0) > 0 && p.unreached === undefined) return [`place ${p.place}: not reached by its case(s) ${p.missing!.join(', ')}`];
      if (p.reachedBy.some((id) => judgedSet.has(id))) return [];
      if (p.reachedBy.length === 0) return p.unreached === undefined ? [`place ${p.place}: no rule of it reaches this place`] : [];
      return [`place ${p.place}: reached only by ${p.reachedBy.join(', ')}, not judged in this run`];
    });
    const left = [...leftRules, ...leftPlaces, ...(s.partial !== undefined ? [`cases its rules leave: ${s.partial}`] : [])];
    return left.length === 0
      ? { ...head, judgement: 'full', rules: judged }
      : { ...head, judgement: 'partial', rules: judged, left };
  });
}

/** The cause most of the statement's rules share (the first rule's on a tie): one word for why it was not judged. */
function mainCause(uses: readonly RuleUse[]): NotJudgedCause {
  const count = new Map<NotJudgedCause, number>();
  for (const u of uses) if (u.cause) count.set(u.cause, (count.get(u.cause) ?? 0) + 1);
  let best: NotJudgedCause = uses[0]?.cause ?? 'skipped';
  for (const [cause, n] of count) if (n > (count.get(best) ?? 0)) best = cause;
  return best;
}

/** Statements per judgement. */
export function countJudgements(statements: readonly StatementJudgement[]): Record<StatementJudgement['judgement'], number> {
  const out = { full: 0, partial: 0, none: 0, untestable: 0 };
  for (const s of statements) out[s.judgement] += 1;
  return out;
}

/** Statements not judged, per cause. */
export function countCauses(statements: readonly StatementJudgement[]): [NotJudgedCause, number][] {
  const out = new Map<NotJudgedCause, number>();
  for (const s of statements) if (s.judgement === 'none' && s.cause) out.set(s.cause, (out.get(s.cause) ?? 0) + 1);
  return [...out].sort((a, b) => b[1] - a[1]);
}

/** One line of why a statement was not judged, or what of it was left. */
export function statementWhy(s: StatementJudgement): string {
  if (s.judgement === 'untestable' || s.judgement === 'full') return s.reason ?? '';
  if (s.judgement === 'none') return [s.reason, ...(s.left ?? [])].filter(Boolean).join(': ');
  return (s.left ?? []).join('; ');
}

/** The report with its statements judged from `inventory` (and the places its statements govern). */
export function withStatements(report: Report, inventory: readonly InventoryStatement[], places?: readonly StatementPlace[]): Report {
  return {
    ...report,
    statements: judgeStatements({
      inventory, results: report.results, ...(places ? { places } : {}),
      ...(report.not_selected ? { notSelected: report.not_selected } : {}),
      ...(report.interruption ? { notRun: report.interruption.not_run } : {}),
    }),
  };
}
