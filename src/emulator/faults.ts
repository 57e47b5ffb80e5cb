/**
 * Test-only fault switches, each declared once: its name, what it breaks, and the rules that catch it. Each one breaks
 * exactly one behaviour of the reference implementation, so that every conformance rule can be shown able to fail (a
 * rule that cannot fail proves nothing). All are off by default; they are switched through `startEmulator({ faults })`,
 * `RunningEmulator.faults` or `POST /_control/faults`. `test/faults/faults.test.ts` switches each on alone and expects
 * every rule in `caughtBy` to fail (an `info` rule to report something different); it also fails when a `must` or
 * `should` rule is caught by no fault. `conformance faults` and docs/faults.md are generated from this list.
 *
 * Each area declares its faults beside the code that reads them (its `faults.ts`); this file only assembles them, so a
 * new fault touches one area table. test/faults/areas.test.ts checks that every fault is read in its area's folder.
 */
import { Switches, type FaultInfo } from './switches.js';
import { API_FAULTS } from './api/faults.js';
import { CHAT_FAULTS } from './chat/faults.js';
import { CONTROL_FAULTS } from './control/faults.js';
import { GENERAL_FAULTS } from './general-faults.js';
import { LISTS_FAULTS } from './lists/faults.js';
import { OAUTH_FAULTS } from './oauth/faults.js';
import { PAGE_FAULTS } from './page/faults.js';


export interface FaultArea {
  /** The table's file, relative to src/emulator; its folder holds the code that reads each of its faults. */
  readonly file: string;
  readonly title: string;
  readonly faults: readonly FaultInfo[];
}

/** The area tables in the spec's order (docs/faults.md keeps it). */
export const FAULT_AREAS = [
  { file: 'page/faults.ts', title: 'Access-granting page', faults: PAGE_FAULTS },
  { file: 'oauth/faults.ts', title: 'Access: redirects, token exchange, secret key, disconnect', faults: OAUTH_FAULTS },
  { file: 'api/faults.ts', title: 'Account API', faults: API_FAULTS },
  { file: 'lists/faults.ts', title: 'List filtering', faults: LISTS_FAULTS },
  { file: 'chat/faults.ts', title: 'Chat interface', faults: CHAT_FAULTS },
  { file: 'control/faults.ts', title: 'Account-side events driven by the control API', faults: CONTROL_FAULTS },
  { file: 'general-faults.ts', title: 'Every area: request bodies, headers, credential leaks', faults: GENERAL_FAULTS },
] as const satisfies readonly FaultArea[];

type FaultRow = (typeof FAULT_AREAS)[number]['faults'][number];
export type FaultName = FaultRow['name'];

/** Every fault, area by area. */
export const FAULTS: readonly FaultRow[] = FAULT_AREAS.flatMap((a): readonly FaultRow[] => a.faults);

/** The table as its common type (FAULTS keeps each entry's literal type, for FaultName). */
export const FAULT_TABLE: readonly FaultInfo[] = FAULTS;

/** The faults that prove their rules can fail: all but those the reading judges a lesser departure (non_strict). */
export const FAILING_FAULTS: readonly FaultInfo[] = FAULT_TABLE.filter((f) => f.verdict === undefined);

/** The fault switches of one emulator instance (src/emulator/switches.ts). */
export class FaultSwitches extends Switches<FaultName> {
  constructor(initial: readonly string[] = []) {
    super('fault', FAULTS.map((f) => f.name), initial);
  }
}

export function isFaultName(name: string): name is FaultName {
  return FAULTS.some((f) => f.name === name);
}
