/**
 * `conformance-kit/vitest`: selected conformance rules as tests of an integrator's own vitest suite (docs/sandbox.md,
 * "Rules as vitest tests"). One test per rule, grouped by spec section, named `[§<section> <level>] <id>: <title>`
 * and labelled for Allure (through `allure-js-commons`, which `allure-vitest`'s reporter records): `section`,
 * `level`, `rule`, severity by level, feature `§<section>`. The rules run once, together, before the first test (as
 * `conformance run --target remote` runs them, against the settings given); each test then reports its rule's
 * verdict: passed, informational and non_strict pass (the detail is annotated), skipped is skipped with its reason,
 * failed and errored fail with the detail and the curl that replays it (a failed `should` rule only with `strict`).
 */
import * as allure from 'allure-js-commons';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allRules } from '../specs/index.js';
import type { Report, RuleResult } from './model/result.js';
import type { Rule } from './model/rule.js';
import { executeRun } from './runner/execute.js';
import { inRuleOrder, runOrder, selector } from './runner/select.js';
import { targetFromEnv } from './targets/from-env.js';
import { planSupply } from './needs/plan.js';
import type { Sandbox, SandboxOptions } from './sandbox.js';

export interface ConformanceSuiteOptions {
  /**
   * The target's settings: the keys `conformance emulator` prints (`startSandbox().settings`, or `inject(...)` of a
   * global setup that provided them), or a staging account's .env keys; or a function giving them when the rules
   * start (`() => sandbox.settings` of a `useSandbox()`, whose settings exist only once its `beforeAll` ran).
   */
  readonly settings: Readonly<Record<string, string | undefined>> | (() => Readonly<Record<string, string | undefined>>);
  /** Which rules: comma-separated id globs or section prefixes, as `conformance run --only` (`4.2`, `oauth.token.*`). */
  readonly only: string;
  /** Same seed, same generated cases (default 1). */
  readonly seed?: number;
  /** Cases per property rule (default 5, the quick profile). */
  readonly runs?: number;
  /** A failed `should` rule fails its test too (default: only failed `must` rules fail, as `conformance run`). */
  readonly strict?: boolean;
  /** Runs the rules that drive Chromium (the access-granting page) too; default off. */
  readonly browser?: boolean;
  /** How long the run may take, in ms (default 600000). */
  readonly timeoutMs?: number;
}

/**
 * Whether an Allure reporter records this test: allure-vitest's setup installs its runtime under this global key
 * (allure-js-commons' `setGlobalTestRuntime`). Without one, every label call would print allure-js-commons' warning
 * (six per test), so a suite run without the reporter labels nothing and prints nothing.
 */
function allureRecording(): boolean {
  return typeof (globalThis as { allureTestRuntime?: unknown }).allureTestRuntime === 'function';
}

/** The rules `only` selects, in the suite's order. */
export function selectRules(only: string): readonly Rule[] {
  const selected = allRules().filter(selector(only));
  if (selected.length === 0) throw new Error(`conformanceSuite: \`only\` selects no rule: "${only}" (see \`npx conformance rules\`)`);
  return selected;
}

/** Registers one vitest test per selected rule, inside `describe` blocks per section; call it at a test file's top level. */
export function conformanceSuite(options: ConformanceSuiteOptions): void {
  const rules = selectRules(options.only);
  let results: Map<string, RuleResult> | undefined;
  let failure: unknown;
  describe(`conformance rules ${options.only}`, () => {
    beforeAll(async () => {
      try {
        const report = await runRules(rules, options);
        results = new Map(report.results.map((r) => [r.id, r]));
      } catch (err) {
        failure = err;
      }
    }, options.timeoutMs ?? 600_000);

    const sections = [...new Set(rules.map((r) => r.section))];
    for (const section of sections) {
      describe(`§${section}`, () => {
        for (const rule of rules.filter((r) => r.section === section)) {
          it(`[§${rule.section} ${rule.level}] ${rule.id}: ${rule.title}`, async (context) => {
            const labelled = allureRecording();
            if (labelled) {
              await allure.label('section', rule.section);
              await allure.label('level', rule.level);
              await allure.label('rule', rule.id);
              await allure.feature(`§${rule.section}`);
              await allure.severity(rule.level === 'must' ? 'critical' : rule.level === 'should' ? 'normal' : 'minor');
            }
            if (failure) throw failure;
            const result = results?.get(rule.id);
            if (!result) throw new Error(`${rule.id}: the run gave no result`);
            if (labelled) await allure.label('verdict', result.status);
            const detail = result.detail + (result.reproduction ? `\n${result.reproduction}` : '');
            switch (result.status) {
              case 'passed':
                return;
              case 'informational':
              case 'non_strict':
                context.annotate(`${result.status}: ${result.detail}`);
                return;
              case 'skipped':
                context.skip(result.detail);
                return;
              case 'failed':
                if (rule.level !== 'must' && !options.strict) {
                  context.annotate(`failed (${rule.level}; fails the test only with strict): ${detail}`, 'warning');
                  return;
                }
                // An assertion failure: Allure records it as failed; an errored rule is broken (src/report/allure.ts).
                expect.fail(`failed: ${detail}`);
                return;
              case 'errored':
                throw new Error(`errored (no verdict could be reached): ${detail}`);
            }
          });
        }
      });
    }
  });
}

/** One run of `rules` against the settings, as `conformance run --target remote` makes it. */
async function runRules(rules: readonly Rule[], options: ConformanceSuiteOptions): Promise<Report> {
  const env: Record<string, string | undefined> = { ...(typeof options.settings === 'function' ? options.settings() : options.settings) };
  if (!options.browser) {
    env.CONFORMANCE_BROWSER = '0';
  }
  const all = allRules();
  const ids = new Set(rules.map((r) => r.id));
  const supply = planSupply(targetFromEnv(env, 'remote'), { interactive: false, soak: false, rules: all, selected: (r) => ids.has(r.id) });
  const report = await executeRun({ target: supply.target, supply, rules: runOrder(rules, supply), seed: options.seed ?? 1, runs: options.runs ?? 5 });
  return { ...report, results: inRuleOrder(report.results, rules) };
}

/**
 * A start makes signing keys, a certificate with https, and the settings through a dozen control calls: about a second
 * alone, several on a loaded CI machine where files start together, past vitest's default hook timeout of 10 s.
 */
const SANDBOX_START_TIMEOUT_MS = 120_000;

export interface UseSandboxOptions extends SandboxOptions {
  /**
   * Reset the sandbox before each test of the file (`sandbox.reset()`: records, tokens, clock, faults and variations
   * back to the start); default true. With false, the file's tests share what the previous ones left.
   */
  readonly resetEachTest?: boolean;
}

/**
 * A sandbox of the test file's own: started in the file's `beforeAll`, reset before each of its tests, closed in its
 * `afterAll`; call it at a test file's top level. Test files run in separate workers and module graphs, so no file sees
 * another's faults, records or clock, however many workers run at once (issue 30). The object it returns is usable in
 * hooks and tests (not at the top level, before `beforeAll` started the sandbox).
 */
export function useSandbox(options: UseSandboxOptions = {}): Sandbox {
  const { resetEachTest = true, ...sandboxOptions } = options;
  let started: Sandbox | undefined;
  beforeAll(async () => {
    // Loaded when a file asks for a sandbox: a suite of rules against a staging account never loads the emulator.
    const { startSandbox } = await import('./sandbox.js');
    started = await startSandbox(sandboxOptions);
  }, SANDBOX_START_TIMEOUT_MS);
  if (resetEachTest) beforeEach(async () => { await started?.reset(); });
  afterAll(async () => { await started?.close(); });
  return new Proxy({} as Sandbox, {
    get(_, name) {
      if (!started) {
        throw new Error(`useSandbox(): the sandbox is started in the file's beforeAll; read \`${String(name)}\` in a hook or a test, or pass \`() => sandbox.settings\``);
      }
      const value = Reflect.get(started, name, started);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
