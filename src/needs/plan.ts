/**
 * The supply plan of a run: for each need of each rule, the source this target supplies it from, or the one setting or
 * step that would let the rule run (its skip reason). It is decided from the catalogue's rows (src/needs/catalogue.ts)
 * once per run, from the target and the selected rules (`planSupply`); the runner's skip reasons, the cases of property
 * rules, the run's opening lines and what `t.need` dispatches to (src/needs/dispatch.ts) all come from it.
 */
import { existsSync } from 'node:fs';
import type { Need, NeedSource } from '../model/needs.js';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { CATALOGUE, OR_CONTROL, type NeedRow, type RuleNeeds } from './catalogue.js';

/** How long a soak run may wait for one rule: the longest real-time check (a code 21 minutes old) and a margin. */
export const SOAK_WINDOW_SECONDS = 22 * 60;

/**
 * Cases a property rule runs when each case mints a code or gives consent on the access-granting page: a grant costs
 * seconds of Chromium and, on a real service, an installation event per code, so such a rule runs a few cases, not a
 * profile's hundred (a control API mints codes for free, and a rule there runs the profile's count).
 */
export const PAGE_CODE_RUNS = 5;

/** A need is supplied from a source, or not, with the one setting or step that would supply it. */
export type Supply = { readonly source: NeedSource } | { readonly gap: string };

/** Every need, in catalogue order. */
export const NEED_KINDS = Object.keys(CATALOGUE) as Need[];

const rowOf = (need: Need): NeedRow => CATALOGUE[need];

const hasControl = (target: TargetConfig): boolean => target.capabilities.includes('control');

/** The token store of `conformance authorize` holds a pair, or REFRESH_TOKEN seeds one. */
const hasTokenStore = (target: TargetConfig): boolean =>
  target.tokenStore !== undefined && (target.credentials.refreshToken !== undefined || existsSync(target.tokenStore));

/** Why the page cannot be driven in Chromium as the administrator, as a skip reason; undefined when it can. */
function pageGap(target: TargetConfig): string | undefined {
  const c = target.credentials;
  if (!c.adminLogin || !c.adminPassword) return `set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium) ${OR_CONTROL}`;
  if (!target.capabilities.includes('browser')) {
    const why = target.gaps?.browser ?? 'the browser is not available';
    return `${why} (the grant page is driven in Chromium with ADMIN_LOGIN), ${OR_CONTROL.replace(/^or /, 'or set ')}`;
  }
  return undefined;
}

/** Every key of the row's settings is set. */
function settingsSet(row: NeedRow, target: TargetConfig): boolean {
  return row.settings !== undefined && row.settings.keys.every((s) => target.settings?.[s.key] !== undefined);
}

/** Whether `source` can supply `need` to `rule` on this target. */
const AVAILABLE: Record<NeedSource, (target: TargetConfig, rule: RuleNeeds, row: NeedRow) => boolean> = {
  control: (target) => hasControl(target),
  browser: (target) => pageGap(target) === undefined,
  settings: (target, rule, row) => (row.fromSettings ? row.fromSettings(target, rule) : settingsSet(row, target)),
  'token-store': (target) => hasTokenStore(target),
  operator: (target) => target.interactive === true,
  'real-time': (target, rule) => rule.soakSeconds !== undefined && target.soakWindowSeconds !== undefined && rule.soakSeconds <= target.soakWindowSeconds,
};

/** The keys of a group as a skip reason names them: `A`, `A and B`, `A, B and C`. */
function keyList(keys: readonly string[]): string {
  return keys.length <= 1 ? keys.join('') : `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;
}

/** The skip reason's words when nothing supplies the need: the row's own, else its settings to set, else the page's. */
function gapOf(row: NeedRow, target: TargetConfig, rule: RuleNeeds): string {
  const page = pageGap(target);
  if (row.gap) return row.gap({ target, rule, page });
  if (row.settings) {
    const keys = `set ${keyList(row.settings.keys.map((s) => s.key))} (${row.settings.why})`;
    return row.sources.includes('control') ? `${keys} ${OR_CONTROL}` : keys;
  }
  return page ?? `set CONTROL_URL (a control API)`;
}

/** How `target` supplies `need` to `rule`: the first source of the row that can, else what would let it. */
export function supplyOf(need: Need, rule: RuleNeeds, target: TargetConfig): Supply {
  const row = rowOf(need);
  const source = row.sources.find((s) => AVAILABLE[s](target, rule, row));
  return source ? { source } : { gap: gapOf(row, target, rule) };
}

/** The first need of the rule the target cannot supply, as a skip reason; undefined when every need is supplied. */
export function missingNeed(rule: RuleNeeds, target: TargetConfig): string | undefined {
  for (const need of rule.needs ?? []) {
    const supply = supplyOf(need, rule, target);
    if ('gap' in supply) return `needs ${need}: ${supply.gap}`;
  }
  return undefined;
}

const fromSource = (need: Need, rule: RuleNeeds, target: TargetConfig, source: NeedSource): boolean => {
  const supply = supplyOf(need, rule, target);
  return 'source' in supply && supply.source === source;
};

const SOURCE_WORDS: Record<NeedSource, string> = {
  control: 'the control API',
  browser: 'the access-granting page in Chromium (ADMIN_LOGIN)',
  settings: 'the settings',
  'token-store': 'the token store',
  operator: 'the operator at this terminal',
  'real-time': 'waiting in real time (--profile soak)',
};

/** Needs the opening lines leave out: one-code says nothing fresh-code does not. */
const UNLISTED: readonly Need[] = ['one-code'];

/**
 * The plan of one run against one target: the target as the run will supply needs (whether the operator can be asked,
 * the soak window, which rule the one AUTH_CODE is kept for), and the decisions made from it.
 */
export class SupplyPlan {
  constructor(readonly target: TargetConfig) {}

  supplyOf(need: Need, rule: RuleNeeds): Supply {
    return supplyOf(need, rule, this.target);
  }

  /** Why the rule cannot run for want of a need (the reason names the one setting or step that would let it). */
  skipReason(rule: RuleNeeds): string | undefined {
    return missingNeed(rule, this.target);
  }

  /** The cases a property rule runs: the profile's, capped at PAGE_CODE_RUNS when its cases use the page. */
  propertyRuns(rule: Rule, runs: number): number {
    const onPage = (rule.needs ?? []).some((need) => rowOf(need).perCaseOnPage === true && fromSource(need, rule, this.target, 'browser'));
    return onPage ? Math.min(runs, PAGE_CODE_RUNS) : runs;
  }

  /** The rule will drive Chromium: it requires the browser, or a need of it is met on the page. */
  usesBrowser(rule: Rule): boolean {
    return rule.requires.includes('browser') || (rule.needs ?? []).some((n) => fromSource(n, rule, this.target, 'browser'));
  }

  /** The rule may ask the person at the terminal to act. */
  asksOperator(rule: Rule): boolean {
    return (rule.needs ?? []).includes('operator') && fromSource('operator', rule, this.target, 'operator');
  }

  /** The rule waits in real time in this run: it needs time to pass and the target supplies it by waiting (--profile soak). */
  waitsInRealTime(rule: Rule): boolean {
    return (rule.needs ?? []).includes('clock') && fromSource('clock', rule, this.target, 'real-time');
  }

  /** The rule uses the second channel of the settings (CHANNEL_ID_2), which every such rule shares. */
  sharesSettingsChannel(rule: Rule): boolean {
    return (rule.needs ?? []).includes('second-channel') && fromSource('second-channel', rule, this.target, 'settings');
  }

  /** What the run's opening lines say about the needs, for a target without a control API (none for one with it). */
  openingLines(): string[] {
    const target = this.target;
    if (hasControl(target)) return [];
    const by = new Map<string, Need[]>();
    const soakRule: RuleNeeds = { id: '', soakSeconds: 21 * 60 };
    for (const need of NEED_KINDS.filter((n) => !UNLISTED.includes(n))) {
      const s = supplyOf(need, need === 'clock' ? soakRule : { id: '' }, target);
      const key = 'source' in s ? `from ${SOURCE_WORDS[s.source]}` : 'not available (the rules that need them are skipped, each saying what would let it run)';
      by.set(key, [...(by.get(key) ?? []), need]);
    }
    const lines = [`no control API: ${[...by].map(([how, needs]) => `${needs.join(', ')} ${how}`).join('; ')}`];
    if (fromSource('fresh-code', { id: '' }, target, 'browser')) lines.push(`property rules that mint a code or give consent per case on the page run at most ${PAGE_CODE_RUNS} cases`);
    return lines;
  }
}

export interface PlanOptions {
  /** A person at a terminal can be asked to act (stdin and stderr are terminals, and not CI). */
  readonly interactive: boolean;
  /** --profile soak: time may pass in real time. */
  readonly soak: boolean;
  /** The rules of the run, in order, and which of them the run selects (--only, --shard). */
  readonly rules: readonly Rule[];
  readonly selected: (rule: Rule) => boolean;
}

/**
 * The plan of a run: the target with whether the operator can be asked, the soak window, and which rule the one
 * AUTH_CODE is kept for (the first selected rule that needs one code and nothing else the target lacks), so that the
 * plan made before the run and what the providers do during it agree.
 */
export function planSupply(target: TargetConfig, o: PlanOptions): SupplyPlan {
  const live: TargetConfig = {
    ...target,
    interactive: o.interactive,
    ...(o.soak ? { soakWindowSeconds: SOAK_WINDOW_SECONDS } : {}),
  };
  if (hasControl(live) || !live.credentials.authCode || pageGap(live) === undefined) return new SupplyPlan(live);
  const holder = o.rules.find((r) => o.selected(r) && r.needs?.includes('one-code') && !r.needs.includes('fresh-code')
    && missingNeed({ ...r, needs: r.needs.filter((n) => n !== 'one-code') }, live) === undefined
    && r.requires.every((c) => live.capabilities.includes(c)));
  return new SupplyPlan(holder ? { ...live, authCodeRule: holder.id } : live);
}
