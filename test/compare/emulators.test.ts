/**
 * `conformance compare` proven on the emulator: against itself (two instances, the same seed) it finds no difference;
 * with one allowed variation switched on in the candidate it finds differences exactly where the variation acts (the
 * endpoints and kinds of difference it changes) and nowhere else; with one fault switched on it lists a difference at
 * the fault's endpoint. The primary and the secondary are run once, over every rule the cases select; each candidate
 * runs only its case's rules (a rule the candidate did not run is compared with nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { captureOn, compareCaptures } from '../../src/compare/compare.js';
import type { Capture } from '../../src/compare/capture.js';
import { embeddedSource } from '../../src/compare/sources.js';
import type { DifferenceClass } from '../../src/compare/types.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import { failing, failOnClasses } from '../../src/cli/commands/compare.js';
import type { ComparisonReport } from '../../src/compare/types.js';
import { FAULT_TABLE } from '../../src/emulator/faults.js';
import type { VariationInfo } from '../../src/emulator/switches.js';
import { VARIATIONS } from '../../src/emulator/variations.js';

const SEED = 20261128;
const RUNS = PROFILE_RUNS.quick;
const rules = allRules();

interface VariationCase {
  readonly variation: string;
  /** The kind of difference the issue asks to see covered: shape, status, headers, order, timing. */
  readonly kind: 'shape' | 'status' | 'headers' | 'order' | 'timing';
  readonly only: readonly string[];
  /** Every difference is of one of these classes, and the first is among them. */
  readonly classes: readonly DifferenceClass[];
  /** Every difference is at an endpoint this matches (`(rule)`: the rule's own verdict or time). */
  readonly at: RegExp;
  /** Every difference is at a place this matches. */
  readonly places?: RegExp;
}

const CONNECT_AND_TOKEN = ['chat.connect.answer', 'oauth.token-response.content-type'];
const VARIATION_CASES: readonly VariationCase[] = [
  { variation: 'json-members-reordered', kind: 'order', only: CONNECT_AND_TOKEN, classes: ['order'], at: /\/connect$|\/access_token$/ },
  { variation: 'json-extra-members', kind: 'shape', only: CONNECT_AND_TOKEN, classes: ['shape'], at: /\/connect$|\/access_token$/, places: /\.x_extension$/ },
  { variation: 'chat-connect-echo-minimal', kind: 'shape', only: ['chat.connect.answer'], classes: ['shape', 'verdict'], at: /\/connect$|^\(rule\)$/, places: /^body \$\.(title|hook_api_version|is_time_window_disabled)$|^verdict$/ },
  { variation: 'json-media-type-case', kind: 'headers', only: CONNECT_AND_TOKEN, classes: ['header'], at: /\/connect$|\/access_token$/, places: /^header content-type$/ },
  { variation: 'json-media-type-no-charset', kind: 'headers', only: CONNECT_AND_TOKEN, classes: ['header'], at: /\/connect$|\/access_token$/, places: /^header content-type$/ },
  { variation: 'www-authenticate-extra-params', kind: 'headers', only: ['api.bearer.invalid-token-error'], classes: ['header'], at: /^GET \{base_url\}\/api\/v4\/(account|leads|contacts|companies|customers)$/, places: /^header www-authenticate$/ },
  { variation: 'bodiless-200-as-204', kind: 'status', only: ['chat.disconnect.no-body'], classes: ['status', 'verdict', 'header'], at: /\/disconnect$|^\(rule\)$/ },
  { variation: 'chat-typing-answers-200', kind: 'status', only: ['chat.typing.accepted'], classes: ['status', 'verdict', 'header'], at: /\/typing$|^\(rule\)$/ },
  { variation: 'chat-history-limit-over-max-422', kind: 'status', only: ['chat.history.limit'], classes: ['status', 'verdict', 'shape', 'value'], at: /\/history$|^\(rule\)$/ },
  { variation: 'lists-empty-200', kind: 'status', only: ['lists.response.shape'], classes: ['status', 'shape', 'header', 'verdict'], at: /\/api\/v4\/\w+$|^\(rule\)$/ },
  { variation: 'lists-id-descending', kind: 'order', only: ['lists.filter.oracle.per-list'], classes: ['order', 'value', 'length'], at: /^GET \{base_url\}\/api\/v4\/\w+$/ },
  { variation: 'slow-answers', kind: 'timing', only: ['api.bearer.missing', 'chat.typing.accepted'], classes: ['timing'], at: /./, places: /^(time|rule time)$/ },
];

interface FaultCase {
  readonly fault: string;
  /** The endpoint the fault changes: a difference must be listed there. */
  readonly at: RegExp;
}

const TOKEN = /^POST \{base_url\}\/oauth2\/access_token$/;
const FAULT_CASES: readonly FaultCase[] = [
  { fault: 'drop-refresh-token', at: TOKEN },
  { fault: 'expires-in-as-string', at: TOKEN },
  { fault: 'token-type-mac', at: TOKEN },
  { fault: 'token-response-text-plain', at: TOKEN },
  { fault: 'reject-form-encoded', at: TOKEN },
  { fault: 'chat-disconnect-answers-400', at: /\/disconnect$/ },
  { fault: 'chat-disconnect-answers-body', at: /\/disconnect$/ },
  { fault: 'chat-connect-title-ignored', at: /\/connect$/ },
  { fault: 'chat-connect-requires-title', at: /\/connect$/ },
  { fault: 'long-lived-token-refused', at: /^GET \{base_url\}\/api\/v4\/account$/ },
];

/** The README's release gate, on a comparison as compareCaptures makes it. */
const RELEASE_GATE = failOnClasses('status,shape,header');
const gate = (c: ReturnType<typeof compareCaptures>) => failing(c as ComparisonReport, RELEASE_GATE);
const caughtBy = (fault: string) => FAULT_TABLE.find((f) => f.name === fault)!.caughtBy;
const union = [...new Set([...VARIATION_CASES.flatMap((c) => c.only), ...FAULT_CASES.flatMap((c) => caughtBy(c.fault))])];
const capture = (o: { only: readonly string[]; faults?: readonly string[]; variations?: readonly string[]; fullWindows?: boolean }) =>
  captureOn(embeddedSource({ seed: SEED, thread: 'main', ...o }), { rules, seed: SEED, runs: RUNS, only: o.only.join(',') });

describe('conformance compare on the emulator', () => {
  let primary: Capture;
  let secondary: Capture;
  beforeAll(async () => {
    primary = await capture({ only: union });
    secondary = await capture({ only: union });
  }, 240_000);
  afterAll(() => {});

  it('the cases name existing switches and rules of different kinds', () => {
    const names = new Set<string>(VARIATIONS.map((v) => v.name));
    expect(VARIATION_CASES.map((c) => c.variation).filter((v) => !names.has(v))).toEqual([]);
    expect(new Set(VARIATION_CASES.map((c) => c.kind))).toEqual(new Set(['shape', 'status', 'headers', 'order', 'timing']));
    expect(FAULT_CASES.filter((c) => caughtBy(c.fault).length === 0).map((c) => c.fault)).toEqual([]);
    expect(union.filter((id) => !rules.some((r) => r.id === id))).toEqual([]);
  });

  it('finds no difference between two instances of the emulator, and names what the third run found as noise', async () => {
    const candidate = await capture({ only: union });
    const c = compareCaptures(primary, candidate, [secondary]);
    expect(c.summary.rules_compared).toBe(union.length);
    expect(c.summary.exchanges_compared).toBeGreaterThan(union.length);
    expect(c.differences.map((d) => `${d.rule} ${d.endpoint} ${d.place}: ${d.what}`)).toEqual([]);
    // The noise table is exactly what the secondary run differed in: each place with both values seen.
    for (const n of c.noise) expect(n.example.primary, `${n.rule} ${n.place}`).not.toBe(n.example.other);
    expect(c.summary.noise_places).toBe(c.noise.length);
    expect(c.summary.named_noise.ids).toBeGreaterThan(0);
  }, 120_000);

  for (const v of VARIATION_CASES) {
    it(`variation ${v.variation} (${v.kind}): differences exactly where it acts`, async () => {
      const info: VariationInfo = VARIATIONS.find((x) => x.name === v.variation)!;
      const candidate = await capture({ only: v.only, variations: [v.variation], ...(info.run?.fullWindows ? { fullWindows: true } : {}) });
      const c = compareCaptures(primary, candidate, [secondary]);
      const shown = c.differences.map((d) => `${d.rule} | ${d.endpoint} | ${d.class} ${d.place}: ${d.what}`);
      expect(c.differences.length, 'no difference found').toBeGreaterThan(0);
      expect(c.differences.some((d) => d.class === v.classes[0]), shown.join('\n')).toBe(true);
      expect(shown.filter((_, i) => !v.classes.includes(c.differences[i]!.class) || !v.at.test(c.differences[i]!.endpoint) || (v.places !== undefined && !v.places.test(c.differences[i]!.place)))).toEqual([]);
      expect(new Set(c.differences.map((d) => d.rule))).toEqual(new Set(v.only));
      if (!v.classes.includes('verdict')) {
        // A variation the spec allows and no rule's verdict changes with: every difference is shown as allowed, and the
        // release gate passes.
        expect(c.differences.filter((d) => d.standing !== 'allowed by the spec').map((d) => `${d.rule} ${d.place}: ${d.standing}`)).toEqual([]);
        expect(gate(c)).toEqual([]);
      } else {
        expect(c.differences.filter((d) => d.class === 'verdict').every((d) => d.standing === 'changes a verdict')).toBe(true);
      }
    }, 120_000);
  }

  for (const f of FAULT_CASES) {
    it(`fault ${f.fault}: a difference at its endpoint`, async () => {
      const candidate = await capture({ only: caughtBy(f.fault), faults: [f.fault] });
      const c = compareCaptures(primary, candidate, [secondary]);
      const shown = c.differences.map((d) => `${d.rule} | ${d.endpoint} | ${d.class} ${d.place}: ${d.what}`);
      expect(c.differences.some((d) => f.at.test(d.endpoint) && d.class !== 'timing'), shown.join('\n')).toBe(true);
      expect(c.by_endpoint.some((e) => f.at.test(e.endpoint))).toBe(true);
      // An `info` rule only records what it saw: its verdict is informational on both sides.
      for (const id of caughtBy(f.fault).filter((x) => rules.find((r) => r.id === x)!.level !== 'info')) expect(c.differences.some((d) => d.rule === id && d.class === 'verdict'), `${id} verdict`).toBe(true);
      // The verdict changes head the list, and fail the release gate whatever the classes of the other differences.
      if (c.differences.some((d) => d.standing === 'changes a verdict')) expect(c.differences[0]!.standing).toBe('changes a verdict');
      if (caughtBy(f.fault).some((x) => rules.find((r) => r.id === x)!.level === 'must')) expect(gate(c).some((d) => d.class === 'verdict')).toBe(true);
    }, 120_000);
  }
});
