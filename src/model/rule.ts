/**
 * The rule model: a rule is a small declarative record traced to one spec section.
 * The `run` function is composed from named steps and checks (see specs/), never written ad hoc per target.
 */
import type { RuleContext } from '../runner/context.js';
import type { Outcome } from './outcome.js';

/** `must`: stated by the spec (or RFC 6749/6750 where it relies on them); `should`: robustness; `info`: left open. */
export type Level = 'must' | 'should' | 'info';

/** What a target has to offer for a rule to run (docs/design.md §2). */
export type Capability = 'control' | 'browser' | 'hook' | 'write';

export const CAPABILITIES: readonly Capability[] = ['control', 'browser', 'hook', 'write'];

export interface Rule {
  /** Stable dotted id, e.g. `oauth.token.code-reuse`. Never renamed once published. */
  readonly id: string;
  /** Spec section, e.g. `4.1` or `5.2`. */
  readonly section: string;
  readonly level: Level;
  readonly requires: readonly Capability[];
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
  readonly run: (t: RuleContext) => Promise<Outcome>;
}

/** A spec file: one spec section (or a few closely related ones) and its rules. */
export interface SpecFile {
  readonly section: string;
  readonly title: string;
  readonly rules: readonly Rule[];
}

export function defineSpec(spec: SpecFile): SpecFile {
  return spec;
}
