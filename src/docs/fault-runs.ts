/**
 * Which faults run differently in which configuration, as data (issue 37): a fault's catching rules (its `caughtBy`)
 * run differently in a configuration when one of them is skipped there (a need the configuration cannot supply, a
 * capability it lacks) or takes a need from another source than on the bench (the embedded target, whose control API
 * supplies nearly everything): a long-lived token as the run's access token, codes and consent from the page in
 * Chromium, a second channel or integration from the settings. Derived from the configuration table (./table.ts) and
 * the supply plan (src/needs/plan.ts), never listed by hand. test/configurations/fault-runs.test.ts runs every pair and
 * docs/faults.md's last column says what it proves.
 */
import { allRules } from '../../specs/index.js';
import { FAULT_TABLE } from '../emulator/faults.js';
import type { FaultInfo } from '../emulator/switches.js';
import type { Need, NeedSource } from '../model/needs.js';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { NEED_KINDS, supplyOf } from '../needs/plan.js';
import { committedReach } from './places.js';
import { targetFromEnv } from '../targets/from-env.js';
import { CONFIGURATIONS, type Configuration, type ConfigurationName, settingsFor } from '../configurations/table.js';

/**
 * The shape of the standalone emulator's printed settings (`conformance emulator`, deployed shape): every key it
 * prints, with a placeholder of the right form. Which need comes from where depends on which keys are set, never on
 * their values; test/configurations/fault-runs.test.ts checks these keys against a real emulator's.
 */
export const PRINTED_SHAPE: Readonly<Record<string, string>> = {
  CONFORMANCE_TARGET: 'remote', BASE_URL: 'http://account.example', AUTH_URL: 'http://www.example', CHAT_URL: 'http://amojo.example',
  CONTROL_URL: 'http://www.example/_control', RATE_LIMIT_RPS: '0', EFFECT_WINDOW_MS: '1000',
  CLIENT_ID: 'client-1', CLIENT_SECRET: 'client-secret-1', REDIRECT_URI: 'https://integration.example/oauth/callback',
  CHANNEL_ID: 'channel-1', CHANNEL_SECRET: 'channel-secret-1', CHAT_ACCOUNT_ID: 'amojo-1', BOT_ID: 'bot-1', MANAGER_USER_ID: '1',
  HOOK_LISTEN: '127.0.0.1:0', CONFORMANCE_BROWSER: '1', BASE_URL_2: 'http://account-2.example', MEMBER_ACCOUNT: '3',
  ADMIN_LOGIN: 'admin@example', ADMIN_PASSWORD: 'admin-password', LONG_LIVED_TOKEN: 'long-lived-token',
  CHANNEL_ID_2: 'channel-2', CHANNEL_SECRET_2: 'channel-secret-2', CHAT_ACCOUNT_ID_2: 'amojo-2',
  INTEGRATION_NAME: 'Integration', PRIVATE_CLIENT_ID: 'client-2', CLIENT_ID_2: 'client-2', CLIENT_SECRET_2: 'client-secret-2',
  REDIRECT_URI_2: 'https://integration.example/oauth/callback', CHANNEL_NAME: 'Channel',
  V1_CHANNEL_ID: 'channel-v1', V1_CHANNEL_SECRET: 'channel-secret-v1', NON_ASCII_LEAD_ID: '4', NON_ASCII_LEAD_NAME: 'Сделка',
  OTHER_ACCOUNT_RECORD_IDS: 'leads:5', RESTRICTED_ACCESS_TOKEN: 'restricted-token', RESTRICTED_USER_ID: '6',
};

/** The keys the embedded target is described by (the emulator's own, src/targets/embedded.ts): no settings group's. */
export const EMBEDDED_KEYS: readonly string[] = [
  'CONFORMANCE_TARGET', 'BASE_URL', 'AUTH_URL', 'CHAT_URL', 'CONTROL_URL', 'CLIENT_ID', 'CLIENT_SECRET', 'REDIRECT_URI',
  'CHANNEL_ID', 'CHANNEL_SECRET', 'CHAT_ACCOUNT_ID', 'BOT_ID', 'MANAGER_USER_ID', 'BASE_URL_2', 'MEMBER_ACCOUNT',
  'HOOK_LISTEN', 'CONFORMANCE_BROWSER', 'RATE_LIMIT_RPS', 'EFFECT_WINDOW_MS',
];

/**
 * The configuration as a target, from the printed settings' shape: what the supply plan decides from. Chromium is
 * taken as there (every configuration drives the page in it; the tests that run them skip without it), no operator
 * can be asked, and no token store was written, so that the data do not depend on the machine.
 */
export function configurationTarget(c: Configuration): TargetConfig {
  const env = c.target === 'emulator'
    ? Object.fromEntries(EMBEDDED_KEYS.map((k) => [k, PRINTED_SHAPE[k]!]))
    : settingsFor(c, PRINTED_SHAPE, [{ id: PRINTED_SHAPE.V1_CHANNEL_ID!, name: 'Channel v1', bot_id: 'bot-v1' }]);
  const t = targetFromEnv(env, c.target);
  const { browser: _, ...gaps } = t.gaps ?? {};
  const { tokenStore: __, ...rest } = t;
  return { ...rest, capabilities: [...new Set([...t.capabilities, 'browser' as const])], gaps, interactive: c.operator };
}

/** How a rule runs in a configuration: skipped (naming the need or capability), or the source of each of its needs. */
export type RuleRun =
  | { readonly id: string; readonly skipped: string }
  | { readonly id: string; readonly sources: Readonly<Partial<Record<Need, NeedSource>>> };

export function ruleRun(target: TargetConfig, rule: Rule): RuleRun {
  const lacking = rule.requires.find((cap) => !target.capabilities.includes(cap));
  const sources: Partial<Record<Need, NeedSource>> = {};
  for (const need of rule.needs ?? []) {
    const s = supplyOf(need, rule, target);
    if ('gap' in s) return { id: rule.id, skipped: need };
    sources[need] = s.source;
  }
  // The runner names a missing need before a missing capability (src/runner/run-rule.ts).
  if (lacking) return { id: rule.id, skipped: lacking };
  return { id: rule.id, sources };
}

/** What makes a rule's run in `c` differ from the bench's: each need's other source, or why it is skipped. */
export function differences(bench: RuleRun, run: RuleRun): string[] {
  if ('skipped' in run) return 'skipped' in bench && bench.skipped === run.skipped ? [] : [`skipped: needs ${run.skipped}`];
  if ('skipped' in bench) return ['runs'];
  return Object.entries(run.sources).filter(([need, source]) => bench.sources[need as Need] !== source)
    .map(([need, source]) => `${need} from ${source}, not ${bench.sources[need as Need]}`);
}

/** One fault in one configuration where its catching rules run differently, and what the kit's own test expects. */
export interface FaultInConfiguration {
  readonly fault: string;
  readonly configuration: ConfigurationName;
  /** Every catching rule as it runs there. */
  readonly rules: readonly RuleRun[];
  /** Why the run differs from the bench's, per rule that differs. */
  readonly why: Readonly<Record<string, readonly string[]>>;
  /**
   * `caught`: a catching rule runs there and the test expects it to fail; `not caught`: every one that runs there is a
   * known miss (UNCAUGHT); `skipped`: none runs, each saying what it needs.
   */
  readonly outcome: 'caught' | 'not caught' | 'skipped';
  /**
   * A configuration earlier in the table whose run of this fault proves this one: each rule that runs here runs there
   * too, taking every need from the same source, with the same access token and, for a chat rule, the same channel and
   * hook version.
   */
  readonly sameRunAs?: ConfigurationName;
  /**
   * A rule that runs there drives the access-granting page in Chromium (codes, consent or a login from the page, or a
   * browser rule): such a run takes seconds per case, too long for `npm test` over every such fault, so the test does
   * not run these pairs and docs/faults.md says so.
   */
  readonly onPage: boolean;
}

/** A catching rule that runs in a configuration and does not catch the fault there: a gap of the kit, to be closed. */
export interface Uncaught {
  readonly fault: string;
  readonly configuration: ConfigurationName;
  readonly rule: string;
  /** The rule's verdict there instead of the bench's. */
  readonly status: 'passed' | 'non_strict';
  /** What the run shows, in a few words. */
  readonly why: string;
}

/**
 * The known misses test/configurations/fault-runs.test.ts found: each still passes there (the test fails once it is
 * caught, so the entry goes), and docs/faults.md names it.
 */
export const UNCAUGHT: readonly Uncaught[] = [
  ...(['remote-control', 'staging', 'one-account'] as const).flatMap((configuration) => ['lists.http.long-query', 'api.bearer.odd-headers', 'lists.filter.no-server-error'].map((rule) => ({
    fault: 'header-overflow-500', configuration, rule, status: 'passed' as const,
    why: 'the standalone emulator answers an oversized header 431 before the fault can answer 500',
  }))),
  {
    fault: 'chat-disconnected-scope-crash', configuration: 'staging', rule: 'chat.disconnect.one-account', status: 'non_strict',
    why: 'the message of the disconnected account is taken; without a control API the rule cannot read what it did',
  },
  ...(['chat-forwards-any-scope', 'chat-reply-to-any-scope'] as const).map((fault) => ({
    fault, configuration: 'staging' as const, rule: fault === 'chat-forwards-any-scope' ? 'chat.forwards.other-account-message' : 'chat.reply-to.other-account-message',
    status: 'non_strict' as const, why: 'the other account\'s message is taken; what was stored is read only through a control API',
  })),
  // The isolation rules send B's (and the second channel's) request naming the first scope's message; a server that
  // takes it shows the breach only in what it stored, which staging cannot read (no control API): the rules say so.
  ...(['chat-forwards-any-scope', 'chat-forwards-source-any-scope', 'chat-forwards-ref-id-source-any-scope', 'chat-reply-to-any-scope', 'chat-comment-any-scope'] as const)
    .flatMap((fault) => (['chat.connection.isolation', 'chat.connection.channel-isolation'] as const).map((rule) => ({
      fault, configuration: 'staging' as const, rule, status: fault === 'chat-comment-any-scope' ? 'passed' as const : 'non_strict' as const,
      why: fault === 'chat-comment-any-scope'
        ? 'the comment under the other scope\'s conversation is taken and comments are read only through a control API: the rule passes on a note'
        : 'the other scope\'s message is taken; what was stored is read only through a control API',
    }))),
  // Found by the page pairs (FAULT_RUNS_PAGES): what a run without a control API cannot see on the page's own.
  ...(['staging', 'one-account'] as const).flatMap((configuration) => [
    ...(['oauth.allow.installs-in-chosen-account', 'oauth.refresh.same-account'] as const).map((rule) => ({
      fault: 'allow-installs-in-first-account', configuration, rule, status: 'passed' as const,
      why: 'without a control API the installation is read only from the account answer, whose id the spec does not show: the other account\'s id is recorded in a note',
    })),
    {
      fault: 'platform-inverted', configuration, rule: 'oauth.redirect.allow-parameters', status: 'passed' as const,
      why: 'which account is on the regional domain is known only from the control API: platform 1 and 2 are each accepted',
    },
    {
      fault: 'jwt-carries-channel-secret', configuration, rule: 'oauth.jwt.no-secrets', status: 'passed' as const,
      why: 'the JWT carries the secret of the integration\'s v2 channel, which the settings (the v1 channel) do not name: the rule looks for the secrets it was given',
    },
  ]),
  ...['connect', 'chats', 'message', 'status', 'history', 'typing', 'react'].map((route) => ({
    fault: 'chat-signature-any-channel-secret', configuration: 'one-account' as const, rule: `chat.signature.route.${route}`, status: 'passed' as const,
    why: 'the case signed with another channel\'s secret is not sent without CHANNEL_ID_2, and the rule passes on a note',
  })),
];

/** The known miss of the rule in the run of `configuration`, if it is one. */
export const missOf = (fault: string, configuration: ConfigurationName, rule: string): Uncaught | undefined =>
  UNCAUGHT.find((u) => u.fault === fault && u.configuration === configuration && u.rule === rule);
const missed = (fault: string, configuration: ConfigurationName, rule: string) => missOf(fault, configuration, rule) !== undefined;

const RULES = new Map(allRules().map((r) => [r.id, r]));

const REACH = committedReach();

/** The rule talks to the chat interface (its id, or a chat place its traced run reached): the configured channel matters. */
const onChat = (id: string) => id.startsWith('chat.') || (REACH.places[id] ?? []).some((place) => place.startsWith('chat '));

/**
 * What a configuration's run of a rule depends on besides the fault: its needs' sources, the run's access token, and,
 * for a rule of the chat interface, the configured channel and its hook version.
 */
function runKey(c: Configuration, r: RuleRun): string {
  return JSON.stringify([c.accessToken, r, onChat(r.id) ? [c.hookApiVersion, c.fromEmulator?.channel ?? null] : null]);
}

/** Where each need comes from in `c`, for every need of the catalogue (a rule may ask for one it does not declare). */
const supplyKeys = new Map<ConfigurationName, string>();
function supplyKey(c: Configuration): string {
  let key = supplyKeys.get(c.name);
  if (key === undefined) {
    const target = configurationTarget(c);
    key = JSON.stringify(NEED_KINDS.map((n) => supplyOf(n, { id: '' }, target)));
    supplyKeys.set(c.name, key);
  }
  return key;
}

/**
 * Every rule that runs in `c` runs in `e`'s run as it would in `c`'s own: `e`'s run proves `c`'s. Only between
 * configurations that supply every need alike: a step may ask for a need its rule does not declare (the signature
 * rules' case signed with another channel's secret), and a run with it proves nothing of a run without it.
 */
function provedBy(c: Configuration, runs: readonly RuleRun[], e: { c: Configuration; runs: readonly RuleRun[] }): boolean {
  const there = new Set(e.runs.filter((r) => !('skipped' in r)).map((r) => runKey(e.c, r)));
  return e.c.target === c.target && supplyKey(c) === supplyKey(e.c) && runs.every((r) => 'skipped' in r || there.has(runKey(c, r)));
}

function faultIn(f: FaultInfo, c: Configuration, target: TargetConfig, bench: readonly RuleRun[], earlier: readonly { c: Configuration; runs: readonly RuleRun[] }[]): FaultInConfiguration | undefined {
  const rules = f.caughtBy.map((id) => ruleRun(target, RULES.get(id)!));
  const why = Object.fromEntries(rules.map((r, i) => [r.id, differences(bench[i]!, r)]).filter(([, d]) => d!.length > 0));
  if (Object.keys(why).length === 0) return undefined;
  const running = rules.filter((r): r is Extract<RuleRun, { sources: unknown }> => !('skipped' in r));
  const same = running.length > 0 ? earlier.find((e) => provedBy(c, rules, e)) : undefined;
  // A shared run misses what the run it shares misses.
  const ran = same?.c.name ?? c.name;
  const outcome = running.length === 0 ? 'skipped' : running.every((r) => missed(f.name, ran, r.id)) ? 'not caught' : 'caught';
  const onPage = running.some((r) => Object.values(r.sources).includes('browser') || RULES.get(r.id)!.requires.includes('browser'));
  return { fault: f.name, configuration: c.name, rules, why, outcome, onPage, ...(same ? { sameRunAs: same.c.name } : {}) };
}

/** Every (fault, configuration) pair where the fault's catching rules run differently from the bench, in table order. */
export function faultsInConfigurations(): FaultInConfiguration[] {
  const targets = CONFIGURATIONS.map((c) => ({ c, target: configurationTarget(c) }));
  const [bench, ...others] = targets;
  const out: FaultInConfiguration[] = [];
  for (const f of FAULT_TABLE) {
    const benchRuns = f.caughtBy.map((id) => ruleRun(bench!.target, RULES.get(id)!));
    const earlier: { c: Configuration; runs: readonly RuleRun[] }[] = [];
    for (const { c, target } of others) {
      const pair = faultIn(f, c, target, benchRuns, earlier);
      if (pair) out.push(pair);
      // Only a configuration whose run exists can lend it to a later one.
      if (pair && pair.outcome !== 'skipped' && !pair.sameRunAs) earlier.push({ c, runs: pair.rules });
    }
  }
  return out;
}
