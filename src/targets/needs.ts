/**
 * Which needs of a rule (src/model/needs.ts) a target can supply in this run, and how; for each it cannot, the one
 * setting or step that would let the rule run. A target with a control API supplies every need through it; without
 * one (a staging account of the real service), the live paths take over: the access-granting page driven in Chromium
 * with the administrator's login, values from the settings, the token store, a person at the terminal, real time.
 */
import { existsSync } from 'node:fs';
import { SkipRule } from '../errors.js';
import type { Need, NeedSource } from '../model/needs.js';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';

/** How long a soak run may wait for one rule: the longest real-time check (a code 21 minutes old) and a margin. */
export const SOAK_WINDOW_SECONDS = 22 * 60;

/** A need is supplied from a source, or not, with the one setting or step that would supply it. */
export type Supply = { readonly source: NeedSource } | { readonly gap: string };

export type RuleNeeds = Pick<Rule, 'id' | 'needs' | 'soakSeconds'>;

const OR_CONTROL = 'or CONTROL_URL (a control API)';

const hasControl = (target: TargetConfig): boolean => target.capabilities.includes('control');

/** The token store of `conformance authorize` holds a pair, or REFRESH_TOKEN seeds one. */
const hasTokenStore = (target: TargetConfig): boolean =>
  target.tokenStore !== undefined && (target.credentials.refreshToken !== undefined || existsSync(target.tokenStore));

/** The page can be driven in Chromium as the administrator. */
function pageGap(target: TargetConfig): string | undefined {
  const c = target.credentials;
  if (!c.adminLogin || !c.adminPassword) return `set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium) ${OR_CONTROL}`;
  if (!target.capabilities.includes('browser')) {
    const why = target.gaps?.browser ?? 'the browser is not available';
    return `${why} (the grant page is driven in Chromium with ADMIN_LOGIN), ${OR_CONTROL.replace(/^or /, 'or set ')}`;
  }
  return undefined;
}

function viaPage(target: TargetConfig): Supply {
  const gap = pageGap(target);
  return gap ? { gap } : { source: 'browser' };
}

function minutes(seconds: number): string {
  return seconds % 86_400 === 0 ? `${seconds / 86_400} days` : seconds >= 3_600 ? `${Math.round(seconds / 360) / 10} hours` : `${Math.round(seconds / 6) / 10} minutes`;
}

/** How the target supplies `need` for `rule` in this run, or the setting or step that would. */
export function supplyOf(need: Need, rule: RuleNeeds, target: TargetConfig): Supply {
  if (hasControl(target)) return { source: 'control' };
  const c = target.credentials;
  switch (need) {
    case 'fresh-code':
    case 'consent':
    case 'login':
      return viaPage(target);
    case 'one-code': {
      const page = viaPage(target);
      if ('source' in page) return page;
      if (c.authCode && target.authCodeRule === rule.id) return { source: 'settings' };
      if (c.authCode && target.authCodeRule) return { gap: `AUTH_CODE serves one rule (${target.authCodeRule}); ${page.gap.replace(/^set/, 'for the others set')}` };
      return { gap: page.gap.replace(/^set /, 'set AUTH_CODE (one fresh code, for one rule), or ') };
    }
    case 'access-token':
      if (c.longLivedToken) return { source: 'settings' };
      if (hasTokenStore(target)) return { source: 'token-store' };
      if (!pageGap(target)) return { source: 'browser' };
      return { gap: 'set LONG_LIVED_TOKEN, or run `conformance authorize` (the token store), or set ADMIN_LOGIN and ADMIN_PASSWORD (the grant page is driven in Chromium), ' + OR_CONTROL };
    case 'long-lived-token':
      return c.longLivedToken ? { source: 'settings' } : { gap: `set LONG_LIVED_TOKEN (made on the integration's Keys tab) ${OR_CONTROL}` };
    case 'refresh-token':
      if (!pageGap(target)) return { source: 'browser' };
      if (hasTokenStore(target)) return { source: 'token-store' };
      return { gap: `set ADMIN_LOGIN and ADMIN_PASSWORD (a fresh pair from the grant page in Chromium), or run \`conformance authorize\` (the token store), ${OR_CONTROL}` };
    case 'operator':
      return target.interactive
        ? { source: 'operator' }
        : { gap: `a person must act on the account (deactivate, disconnect, regenerate the key, revoke): run the kit on a terminal, where it asks the operator and waits, ${OR_CONTROL}` };
    case 'clock': {
      const wait = rule.soakSeconds;
      if (wait === undefined) return { gap: `set CONTROL_URL: time must pass on the target's clock, longer than a run can wait in real time` };
      if (target.soakWindowSeconds !== undefined && wait <= target.soakWindowSeconds) return { source: 'real-time' };
      return { gap: `run with --profile soak (it waits up to ${minutes(wait)} in real time) ${OR_CONTROL}` };
    }
    case 'second-integration':
      return c.secondClient ? { source: 'settings' } : { gap: `set CLIENT_ID_2, CLIENT_SECRET_2 and REDIRECT_URI_2 (a second integration of the developer account) ${OR_CONTROL}` };
    case 'channel-name':
      return c.channelName ? { source: 'settings' } : { gap: `set CHANNEL_NAME (the configured channel's registered name, a connection's default title) ${OR_CONTROL}` };
    case 'v1-only-channel':
      return c.v1ChannelId && c.v1ChannelSecret ? { source: 'settings' } : { gap: `set V1_CHANNEL_ID and V1_CHANNEL_SECRET (a channel registered with a v1 hook address only) ${OR_CONTROL}` };
    case 'non-ascii-record':
      return c.nonAsciiLead ? { source: 'settings' } : { gap: `set NON_ASCII_LEAD_ID and NON_ASCII_LEAD_NAME (a lead of the account named in Cyrillic or emoji) ${OR_CONTROL}` };
    case 'foreign-records':
      return c.otherAccountRecordIds ? { source: 'settings' } : { gap: `set OTHER_ACCOUNT_RECORD_IDS (ids of another account's leads, contacts, companies or customers) ${OR_CONTROL}` };
    case 'private-integration':
      return c.privateClientId ? { source: 'settings' } : { gap: `set PRIVATE_CLIENT_ID (the client id of a private integration of the account) ${OR_CONTROL}` };
    case 'integration-name':
      return c.integrationName ? { source: 'settings' } : { gap: `set INTEGRATION_NAME (the integration's name, as the access-granting page must show it) ${OR_CONTROL}` };
    case 'second-channel':
      return c.channelId2 && c.channelSecret2 ? { source: 'settings' } : { gap: `set CHANNEL_ID_2 and CHANNEL_SECRET_2 (a second channel registered for the integration, which the rule disconnects) ${OR_CONTROL}` };
    case 'second-account':
      return c.chatAccountId2 ? { source: 'settings' } : { gap: `set CHAT_ACCOUNT_ID_2 (the chat-interface id of a second account where the integration is installed) ${OR_CONTROL}` };
    case 'second-base-url':
      return c.baseUrl2 ? { source: 'settings' } : { gap: `set BASE_URL_2 (the address of a second account, not the one the run's tokens are granted in) ${OR_CONTROL}` };
    case 'member-account':
      return c.memberAccount ? { source: 'settings' } : { gap: `set MEMBER_ACCOUNT (the id or domain of an account where ADMIN_LOGIN is only a member) ${OR_CONTROL}` };
    case 'ground-truth':
      return { gap: `set CONTROL_URL: the ground truth (every record, not only what the API shows) comes only from a control API` };
    case 'counters':
      return { gap: `set CONTROL_URL: what the target did on its own (leads, notifications, hooks sent) is counted only through a control API` };
  }
}

/** The first need of the rule the target cannot supply, as a skip reason; undefined when every need is supplied. */
/** How this run supplies `need` to a rule; a rule that cannot have it is skipped, the reason naming what would supply it. */
export function requireNeed(need: Need, target: TargetConfig, rule: RuleNeeds = { id: '' }): NeedSource {
  const supply = supplyOf(need, rule, target);
  if ('gap' in supply) throw new SkipRule(`needs ${need}: ${supply.gap}`);
  return supply.source;
}

export function missingNeed(rule: RuleNeeds, target: TargetConfig): string | undefined {
  for (const need of rule.needs ?? []) {
    const supply = supplyOf(need, rule, target);
    if ('gap' in supply) return `needs ${need}: ${supply.gap}`;
  }
  return undefined;
}

/** Every need, as this target supplies it to a rule that needs nothing unusual (for the run's opening lines). */
export function supplyTable(target: TargetConfig, needs: readonly Need[]): ReadonlyMap<Need, Supply> {
  const plain: RuleNeeds = { id: '' };
  return new Map(needs.map((n) => [n, supplyOf(n, plain, target)]));
}

export interface LiveOptions {
  /** A person at a terminal can be asked to act (stdin and stderr are terminals, and not CI). */
  readonly interactive: boolean;
  /** --profile soak: time may pass in real time. */
  readonly soak: boolean;
  /** The rules of the run, in order, and which of them the run selects (--only, --shard). */
  readonly rules: readonly Rule[];
  readonly selected: (rule: Rule) => boolean;
}

/**
 * The target as this run will supply needs: whether the operator can be asked, the soak window, and which rule the
 * one AUTH_CODE is kept for (the first selected rule that needs one code and nothing else the target lacks), so that
 * the plan made before the run and what the providers do during it agree.
 */
export function liveTarget(target: TargetConfig, o: LiveOptions): TargetConfig {
  const live: TargetConfig = {
    ...target,
    interactive: o.interactive,
    ...(o.soak ? { soakWindowSeconds: SOAK_WINDOW_SECONDS } : {}),
  };
  if (hasControl(live) || !live.credentials.authCode || pageGap(live) === undefined) return live;
  const holder = o.rules.find((r) => o.selected(r) && r.needs?.includes('one-code') && !r.needs.includes('fresh-code')
    && missingNeed({ ...r, needs: r.needs.filter((n) => n !== 'one-code') }, live) === undefined
    && r.requires.every((c) => live.capabilities.includes(c)));
  return holder ? { ...live, authCodeRule: holder.id } : live;
}

/** Needs met on the access-granting page in Chromium when the target has no control API. */
const PAGE_NEEDS: readonly Need[] = ['fresh-code', 'one-code', 'consent', 'login', 'access-token', 'refresh-token'];

/** The rule will drive Chromium: it requires the browser, or a need of it is met on the page. */
export function usesBrowser(rule: Rule, target: TargetConfig): boolean {
  if (rule.requires.includes('browser')) return true;
  const fromPage = (need: Need) => {
    const supply = supplyOf(need, rule, target);
    return 'source' in supply && supply.source === 'browser';
  };
  return (rule.needs ?? []).some((n) => PAGE_NEEDS.includes(n) && fromPage(n));
}

/**
 * Cases a property rule runs when each case mints a code or gives consent on the access-granting page: a grant costs
 * seconds of Chromium and, on a real service, an installation event per code, so such a rule runs a few cases, not a
 * profile's hundred (a control API mints codes for free, and a rule there runs the profile's count).
 */
export const PAGE_CODE_RUNS = 5;

/** Needs a property rule meets once per case. */
const PER_CASE_NEEDS: readonly Need[] = ['fresh-code', 'consent'];

/** The cases a property rule runs in this run: the profile's, capped at PAGE_CODE_RUNS when its cases use the page. */
export function propertyRuns(rule: Rule, target: TargetConfig, runs: number): number {
  const onPage = (rule.needs ?? []).some((need) => {
    if (!PER_CASE_NEEDS.includes(need)) return false;
    const supply = supplyOf(need, rule, target);
    return 'source' in supply && supply.source === 'browser';
  });
  return onPage ? Math.min(runs, PAGE_CODE_RUNS) : runs;
}

/** The rule may ask the person at the terminal to act. */
export function needsOperator(rule: Rule, target: TargetConfig): boolean {
  if (!rule.needs?.includes('operator')) return false;
  const s = supplyOf('operator', rule, target);
  return 'source' in s && s.source === 'operator';
}

const SOURCE_WORDS: Record<NeedSource, string> = {
  control: 'the control API',
  browser: 'the access-granting page in Chromium (ADMIN_LOGIN)',
  settings: 'the settings',
  'token-store': 'the token store',
  operator: 'the operator at this terminal',
  'real-time': 'waiting in real time (--profile soak)',
};

/** What the run's opening lines say about the needs, for a target without a control API (none for one with it). */
export function liveLines(target: TargetConfig): string[] {
  if (hasControl(target)) return [];
  const by = new Map<string, Need[]>();
  const soakRule: RuleNeeds = { id: '', soakSeconds: 21 * 60 };
  for (const need of NEED_ORDER) {
    const s = supplyOf(need, need === 'clock' ? soakRule : { id: '' }, target);
    const key = 'source' in s ? `from ${SOURCE_WORDS[s.source]}` : 'not available (the rules that need them are skipped, each saying what would let it run)';
    by.set(key, [...(by.get(key) ?? []), need]);
  }
  const lines = [`no control API: ${[...by].map(([how, needs]) => `${needs.join(', ')} ${how}`).join('; ')}`];
  const page = supplyOf('fresh-code', { id: '' }, target);
  if ('source' in page && page.source === 'browser') lines.push(`property rules that mint a code or give consent per case on the page run at most ${PAGE_CODE_RUNS} cases`);
  return lines;
}

const NEED_ORDER: readonly Need[] = [
  'fresh-code', 'consent', 'login', 'access-token', 'long-lived-token', 'refresh-token', 'second-channel', 'second-account', 'second-base-url',
  'member-account', 'integration-name', 'private-integration', 'second-integration', 'channel-name', 'v1-only-channel', 'non-ascii-record',
  'foreign-records', 'operator', 'clock', 'ground-truth', 'counters',
];
