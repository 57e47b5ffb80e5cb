/**
 * Allowed-variation switches, the mirror of the fault switches (./faults.ts): each makes the emulator behave in a way
 * the spec allows but the emulator does not do by default (another code of the same class, members in another order,
 * a token lifetime other than 24 h, an effect that comes late). `test/variations/` runs the suite under each one
 * alone (the rules that can observe it) and expects no rule `failed` or `errored`: a variation that makes a rule fail is a bug in the rule (it reads the
 * spec more strictly than its wording), unless the spec forbids the behaviour, and then it is a fault, not a variation.
 * Each names its basis: the reading of docs/verdicts.md it exercises and the spec's own words. All are off by default;
 * they are switched through `startEmulator({ variations })`, `RunningEmulator.variations` or
 * `POST /_control/variations`. `conformance variations` and docs/variations.md are generated from this list.
 *
 * Each area declares its variations beside the code that reads them (its `variations.ts`); this file only assembles
 * them. test/faults/areas.test.ts checks that every variation is read in its area's folder.
 */
import { Switches, type VariationInfo } from './switches.js';
import { API_VARIATIONS } from './api/variations.js';
import { CHAT_VARIATIONS } from './chat/variations.js';
import { GENERAL_VARIATIONS } from './general-variations.js';
import { LISTS_VARIATIONS } from './lists/variations.js';
import { OAUTH_VARIATIONS } from './oauth/variations.js';
import { PAGE_VARIATIONS } from './page/variations.js';


export interface VariationArea {
  /** The table's file, relative to src/emulator; its folder holds the code that reads each of its variations. */
  readonly file: string;
  readonly title: string;
  readonly variations: readonly VariationInfo[];
}

/** The area tables in the spec's order (docs/variations.md keeps it). */
export const VARIATION_AREAS = [
  { file: 'general-variations.ts', title: 'Every area: answers in general, API paths', variations: GENERAL_VARIATIONS },
  { file: 'page/variations.ts', title: 'Access-granting page', variations: PAGE_VARIATIONS },
  { file: 'oauth/variations.ts', title: 'Access: tokens, token exchange, redirect, disconnect hook', variations: OAUTH_VARIATIONS },
  { file: 'api/variations.ts', title: 'Account API', variations: API_VARIATIONS },
  { file: 'lists/variations.ts', title: 'List filtering', variations: LISTS_VARIATIONS },
  { file: 'chat/variations.ts', title: 'Chat interface', variations: CHAT_VARIATIONS },
] as const satisfies readonly VariationArea[];

type VariationRow = (typeof VARIATION_AREAS)[number]['variations'][number];
export type VariationName = VariationRow['name'];

/** Every variation, area by area. */
export const VARIATIONS: readonly VariationRow[] = VARIATION_AREAS.flatMap((a): readonly VariationRow[] => a.variations);

/** The table as its common type (VARIATIONS keeps each entry's literal type, for VariationName). */
export const VARIATION_TABLE: readonly VariationInfo[] = VARIATIONS;

/** The variation switches of one emulator instance (src/emulator/switches.ts). */
export class VariationSwitches extends Switches<VariationName> {
  constructor(initial: readonly string[] = []) {
    super('variation', VARIATIONS.map((v) => v.name), initial);
  }
}

export function isVariationName(name: string): name is VariationName {
  return VARIATIONS.some((v) => v.name === name);
}
