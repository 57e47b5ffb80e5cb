/**
 * The places table's pairs: each statement of specs/requirements/places.ts at each place of its kind
 * (src/protocol/places.ts), with the statement's rules that reach the place by a traced run (src/runner/trace.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { GOVERNS, type PlaceKind, REQUIREMENTS, type Requirement } from '../../specs/requirements/index.js';
import { REACH_PATH } from '../paths.js';
import { PLACE_KINDS as PROTOCOL_PLACE_KINDS } from '../protocol/places.js';

/** The protocol's kinds under the inventory's names; the two lists of names must be the same (checked below, when compiling). */
export const PLACE_KINDS: { readonly [K in PlaceKind]: { readonly what: string; readonly places: readonly string[] } } = PROTOCOL_PLACE_KINDS;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameKinds: Same<keyof typeof PROTOCOL_PLACE_KINDS, PlaceKind> = true;
void sameKinds;

/** Rule id → the places its requests reached. */
export type Reach = Readonly<Record<string, readonly string[]>>;

/** What the last traced run reached; empty before the first `conformance docs`. */
export function committedReach(): Reach {
  return existsSync(REACH_PATH) ? JSON.parse(readFileSync(REACH_PATH, 'utf8')) as Reach : {};
}

/** One (statement, place) pair of the table, with the statement's rules that reach the place. */
export interface PlacePair {
  readonly statement: string;
  readonly kind: PlaceKind;
  readonly place: string;
  readonly reachedBy: readonly string[];
  readonly unreached?: string;
}

/** Every (statement, place) pair the table names, with what `reach` says reaches it. */
export function placePairs(reach: Reach, inventory: readonly Requirement[] = REQUIREMENTS): PlacePair[] {
  const byId = new Map(inventory.map((r) => [r.id, r]));
  return GOVERNS.flatMap((g) => g.statements.flatMap((id) => PLACE_KINDS[g.kind].places.map((place): PlacePair => {
    const rules = byId.get(id)?.rules ?? [];
    const reason = g.unreached?.[place];
    return {
      statement: id, kind: g.kind, place,
      reachedBy: rules.filter((rule) => reach[rule]?.includes(place)),
      ...(reason === undefined ? {} : { unreached: reason }),
    };
  })));
}
