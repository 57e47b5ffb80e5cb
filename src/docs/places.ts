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

/**
 * What a traced run reached (src/runner/trace.ts): rule id → the places its requests reached, and for the rules that
 * name their cases (`inCase`), case → the places that case's requests reached.
 */
export interface Reach {
  readonly places: Readonly<Record<string, readonly string[]>>;
  readonly cases?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

/** What the last traced run reached; empty before the first `conformance docs`. */
export function committedReach(): Reach {
  if (!existsSync(REACH_PATH)) return { places: {} };
  const read = JSON.parse(readFileSync(REACH_PATH, 'utf8')) as Reach | Reach['places'];
  // reach.json before issue 39 was the rule → places map alone.
  return 'places' in read && !Array.isArray(read.places) ? read as Reach : { places: read as Reach['places'] };
}

/** One (statement, place) pair of the table, with the statement's rules that reach the place. */
export interface PlacePair {
  readonly statement: string;
  readonly kind: PlaceKind;
  readonly place: string;
  /** The statement's rules whose requests reach the place (in any of their cases). */
  readonly reachedBy: readonly string[];
  /**
   * The statement's cases (at this kind of place) that do not reach the place: the pair is reached only when none is
   * missing. A case is one its rules name (`inCase`: the same name in two rules is one case, reached by either), or,
   * where the statements go `byCase` (specs/requirements/places.ts), a rule that names none, as a whole.
   */
  readonly missing: readonly string[];
  /** How many cases the statement has at this kind of place. */
  readonly cases: number;
  readonly unreached?: string;
}

/** The pair is reached: some rule reaches it, and every case of the statement does. */
export const pairReached = (p: PlacePair): boolean => p.reachedBy.length > 0 && p.missing.length === 0;

/**
 * The cases of a statement's rules and the places each reaches: a rule's named cases (its requests outside any case,
 * a fixture's set-up, are no case); a rule that names none is one case as a whole where the statements go `byCase`,
 * else no case (its reach counts as any rule's).
 */
function casesOf(reach: Reach, rules: readonly string[], byCase: boolean): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const rule of rules) {
    const named = reach.cases?.[rule];
    const cases = named && Object.keys(named).length > 0 ? Object.entries(named) : byCase ? [[rule, reach.places[rule] ?? []] as const] : [];
    for (const [name, places] of cases) out.set(name, new Set([...(out.get(name) ?? []), ...places]));
  }
  return out;
}

/**
 * Every (statement, place) pair the table names, with what `reach` says reaches it. The statement's cases at a kind of
 * place are those that reach some place of the kind (a case that reaches none speaks of another place: a refusal
 * before any bearer endpoint, a step at the token endpoint).
 */
export function placePairs(reach: Reach, inventory: readonly Requirement[] = REQUIREMENTS): PlacePair[] {
  const byId = new Map(inventory.map((r) => [r.id, r]));
  return GOVERNS.flatMap((g) => g.statements.flatMap((id) => {
    const rules = byId.get(id)?.rules ?? [];
    const places = PLACE_KINDS[g.kind].places;
    const cases = [...casesOf(reach, rules, g.byCase === true)].filter(([, at]) => places.some((p) => at.has(p)));
    return places.map((place): PlacePair => {
      const reason = g.unreached?.[place];
      return {
        statement: id, kind: g.kind, place,
        reachedBy: rules.filter((rule) => reach.places[rule]?.includes(place)),
        missing: cases.filter(([, at]) => !at.has(place)).map(([name]) => name).sort(),
        cases: cases.length,
        ...(reason === undefined ? {} : { unreached: reason }),
      };
    });
  }));
}
