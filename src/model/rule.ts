/**
 * The rule model: a rule is a small declarative record traced to one spec section, built by the builders of
 * src/model/define.ts (and the fixtures' builders of src/steps) and grouped by section in a spec file.
 */
import { RuleDefinitionError } from '../errors.js';
import type { RuleContext } from './context.js';
import type { Outcome } from './outcome.js';
import type { Need } from './needs.js';
import type { Capability } from './target.js';

/** `must`: stated by the spec (or RFC 6749/6750 where it relies on them); `should`: robustness; `info`: left open. */
export type Level = 'must' | 'should' | 'info';


/**
 * How a rule was built. Everything but `closure` is a declarative builder: what is sent and which named checks judge
 * it are data the builder runs; `closure` is a free-form run function (`rule(meta, run)`), kept for what no builder fits.
 */
export type RuleKind = 'exchange' | 'property' | 'sweep' | 'scenario' | 'closure';

export const DECLARATIVE_KINDS: readonly RuleKind[] = ['exchange', 'property', 'sweep', 'scenario'];

export interface Rule {
  /** Stable dotted id, e.g. `oauth.token.code-reuse`. Never renamed once published. */
  readonly id: string;
  /** Spec section, e.g. `4.1` or `5.2`: the spec file's own, unless the rule names another. */
  readonly section: string;
  readonly level: Level;
  readonly requires: readonly Capability[];
  /**
   * Fixtures, acts and views the rule needs beyond its capabilities (src/needs/catalogue.ts). The run's supply plan
   * decides how the target supplies each (a control API, the page in Chromium, a setting, the operator, real time) or why it cannot.
   */
  readonly needs?: readonly Need[];
  /**
   * With `needs: ['clock']`: the longest the rule waits in real time when the target's clock cannot be moved
   * (--profile soak), in seconds. Without it, the rule needs a clock it can move (the control API).
   */
  readonly soakSeconds?: number;
  /** One line, what the rule checks. */
  readonly title: string;
  /** The reading taken where the spec is loose or silent (the ambiguity policy of docs/design.md §2). */
  readonly reading?: string;
  /**
   * The spec table rows the rule checks, as keys of src/docs/spec-tables.ts (`<section>/<first cell>`, e.g.
   * `4.2/filter[price]` or `2.5/ref_id`): the generated traceability tables are built from these.
   */
  readonly covers?: readonly string[];
  /** With `requires: ['write']`: what the rule creates on the target, for `--dry-run` (ids always carry the run id). */
  readonly creates?: string;
  /** The rule changes target-wide state (the clock, the secret key): the runner runs it alone, after the others. */
  readonly exclusive?: boolean;
  readonly kind: RuleKind;
  readonly run: (t: RuleContext) => Promise<Outcome>;
}

/** A rule as its builder made it: section, level, requires and needs may be left to its group and section. */
export type RuleDraft = Omit<Rule, 'section' | 'level' | 'requires'> & { readonly section?: string; readonly level?: Level; readonly requires?: readonly Capability[] };

/** What a rule states about itself; `section` only where it differs from its section's, `level`, `requires` and `needs` where the defaults of its group and section do not fit. */
export interface RuleMeta {
  readonly id: string;
  readonly section?: string;
  readonly level?: Level;
  readonly requires?: readonly Capability[];
  readonly needs?: readonly Need[];
  readonly soakSeconds?: number;
  readonly title: string;
  readonly reading?: string;
  readonly exclusive?: boolean;
  readonly covers?: readonly string[];
  readonly creates?: string;
}

/** Every builder ends here: the meta, the kind it builds, and the run function it made; defineSection completes it. */
export function draft(meta: RuleMeta, kind: RuleKind, run: (t: RuleContext) => Promise<Outcome>): RuleDraft {
  return { ...meta, kind, run };
}

/** What a section gives its groups, and a group its rules, unless they state their own. */
export interface Defaults {
  readonly level?: Level;
  readonly requires?: readonly Capability[];
  readonly needs?: readonly Need[];
}

/** The rules under one sub-heading (or endpoint) of the spec, with the defaults they share. */
export interface SpecGroup {
  readonly heading: string;
  readonly defaults: Defaults;
  readonly rules: readonly RuleDraft[];
}

/** A group as its section completed it. */
export interface CompletedGroup {
  readonly heading: string;
  readonly rules: readonly Rule[];
}

/** A spec section (`specs/<section>/index.ts`): its groups, and all their rules in order, each with its section, level, requires and needs set. */
export interface SpecSection {
  readonly section: string;
  readonly title: string;
  readonly groups: readonly CompletedGroup[];
  readonly rules: readonly Rule[];
}

/** A spec file of a single group, as the tests build them: `defineSection` with one group. */
export type SpecFile = SpecSection;

export function defineGroup(group: { readonly heading: string; readonly defaults?: Defaults; readonly rules: readonly RuleDraft[] }): SpecGroup {
  return { heading: group.heading, defaults: group.defaults ?? {}, rules: group.rules };
}

/**
 * A section owns its rules (as h2spec's NewTestGroup("6.5", ...) with AddTestGroup passing Strict down): each rule gets
 * the section, and the level, requires and needs of its group, else of its section, unless it states its own. A rule
 * names a section only when it differs from the section's own (naming the section's own is refused, so that a section
 * written on a rule always means "this one is elsewhere in the spec"); a rule maker shared by several sections (the
 * object sweeps of specs/fixtures/chat.ts) states its capabilities itself.
 */
export function defineSection(spec: { readonly section: string; readonly title: string; readonly defaults?: Defaults; readonly groups: readonly SpecGroup[] }): SpecSection {
  const groups = spec.groups.map((g): CompletedGroup => ({
    heading: g.heading,
    rules: g.rules.map((r): Rule => {
      const where = `rule ${r.id} (§${spec.section}, ${g.heading})`;
      if (r.section === spec.section) throw new RuleDefinitionError(`${where} names section ${r.section}, its section's own: leave it out (only a different section is named)`);
      const inherited: Defaults = { ...spec.defaults, ...g.defaults };
      const level = r.level ?? inherited.level;
      if (!level) throw new RuleDefinitionError(`${where} has no level and neither its group nor its section gives a default`);
      const needs = r.needs ?? inherited.needs ?? [];
      const { needs: _stated, ...rest } = r;
      return { ...rest, section: r.section ?? spec.section, level, requires: r.requires ?? inherited.requires ?? [], ...(needs.length > 0 ? { needs } : {}) };
    }),
  }));
  return { section: spec.section, title: spec.title, groups, rules: groups.flatMap((g) => g.rules) };
}

/** Rules under one section with one default level, for tests that build a few rules of their own: a section of one group. */
export function defineSpec(spec: { readonly section: string; readonly title: string; readonly level?: Level; readonly rules: readonly RuleDraft[] }): SpecFile {
  const rules = spec.rules.map((r): Rule => {
    if (r.section === spec.section) {
      throw new RuleDefinitionError(`rule ${r.id} names section ${r.section}, its spec file's own: leave it out (only a different section is named)`);
    }
    const level = r.level ?? spec.level;
    if (!level) throw new RuleDefinitionError(`rule ${r.id} has no level and its spec file (§${spec.section}) gives no default`);
    return { ...r, section: r.section ?? spec.section, level, requires: r.requires ?? [] };
  });
  return { section: spec.section, title: spec.title, groups: [{ heading: spec.title, rules }], rules };
}
