/**
 * Allowed-variation switches, the mirror of the fault switches (./faults.ts): each makes the emulator behave in a way
 * the spec allows but the emulator does not do by default (another code of the same class, members in another order,
 * a token lifetime other than 24 h, an effect that comes late). `test/variations/` runs the whole suite under each one
 * alone and expects no rule `failed` or `errored`: a variation that makes a rule fail is a bug in the rule (it reads the
 * spec more strictly than its wording), unless the spec forbids the behaviour, and then it is a fault, not a variation.
 * Each names its basis: the reading of docs/verdicts.md it exercises and the spec's own words. All are off by default;
 * they are switched through `startEmulator({ variations })`, `RunningEmulator.variations` or
 * `POST /_control/variations`. `conformance variations` and docs/variations.md are generated from this list.
 */
import { Switches } from './switches.js';

export interface VariationInfo {
  readonly name: string;
  /** What the emulator does differently when it is on. */
  readonly description: string;
  /** Why a correct server may do it: the reading (docs/verdicts.md) and the spec's words it rests on. */
  readonly basis: string;
  /**
   * How the suite must run to judge it truthfully: `fullWindows` lifts the embedded emulator's 1 s cap on effect
   * windows, for a variation whose effects come late (a real service's are not instant).
   */
  readonly run?: { readonly fullWindows?: boolean };
  /**
   * The rules that can observe it, as an `--only` selection (`chat.*`): those that call the endpoints it changes.
   * A variation of the chat interface cannot reach a rule that never calls it, so `test/variations/` runs only these;
   * without a scope, the whole suite.
   */
  readonly scope?: string;
}

/** The rules that call the chat interface: every `chat.*` rule. */
export const CHAT_SCOPE = 'chat.*';
/** The rules that call the list endpoints: the list rules and the account API's and HTTP robustness rules over them. */
export const LISTS_SCOPE = 'lists.*,api.*,http.*';

const defineVariations = <const T extends readonly VariationInfo[]>(list: T): T => list;

export const VARIATIONS = defineVariations([
  // Answers in general (src/emulator/answer-variations.ts): JSON is compared by value, extra members are allowed.
  { name: 'json-members-reordered', description: 'Every JSON answer has the members of each object in reverse order.',
    basis: 'answer-member: JSON values are compared by value; an object is an unordered set of members (RFC 8259 §4).' },
  { name: 'json-extra-members', description: 'Every object of every JSON answer carries one more member, `x_extension: true`.',
    basis: 'answer-member: extra members are always allowed (docs/design.md §2, ambiguity policy).' },
  { name: 'json-media-type-case', description: 'JSON answers are labelled `Application/JSON; Charset=UTF-8`.',
    basis: 'status-code/answer-member: media types and their parameter names are case-insensitive (RFC 9110 §8.3.1); §4.1 and §4.3 state application/json.' },
  { name: 'json-media-type-no-charset', description: 'JSON answers are labelled `application/json` without a charset parameter.',
    basis: 'answer-member: application/json has no charset parameter of its own (RFC 8259 §11); the spec states only the media type.' },
  { name: 'bodiless-200-as-204', description: 'Answers the spec states as "200 with no body" (disconnect, delivery status, reaction) are sent as 204 No Content.',
    basis: 'status-code: another code of the same class is non_strict; "no body" is kept.' },
  { name: 'bodiless-200-with-json', description: 'Answers the spec states as "200 with no body" carry a small JSON object (`{"result":"ok"}`).',
    basis: 'one-observation: a body on an answer stated as bodiless is at worst non_strict, and only in the rule that owns the answer\'s shape.' },
  { name: 'slow-answers', description: 'The first answer of each area (token exchange, account API, chat interface) is held 12 s before it is sent.',
    basis: 'effect-window: a hang is an answer slower than 30 s; a slow answer is an answer (a full page or a large body can take seconds).' },

  // ---- Access and tokens (§2.2, §2.3, §3.1, §4.1, §5.1, §5.3)
  // (end of access and tokens)

  // ---- Lists (§4.2)
  { name: 'lists-name-substring', description: 'filter[name] matches every record whose name contains the value, in any letter case (not only the exact name).',
    basis: 'stated-behaviour/open-point: §4.2 says only "filter[name] | string or array | … | By name"; how a name matches is not stated (REQ-4.2-name-match), so a substring or case-insensitive match is a reading of "By name".', scope: LISTS_SCOPE },
  { name: 'lists-query-any-field', description: '`query` also searches every custom field value (enum texts, numbers, URLs, dates) and the record id, not only the name and text fields.',
    basis: 'stated-behaviour: §4.2 calls query a "Search string; will soon be deprecated" without saying which fields it searches; a hit in another field is a search hit.', scope: LISTS_SCOPE },
  { name: 'lists-open-range-refused', description: 'A range filter with only [from] or only [to] is refused with 400 (both bounds are required).',
    basis: 'status-code/open-point: §4.2 "`Range` = `from`/`to` is allowed" and "Range | filter[<field>][from]=<number>&filter[<field>][to]=<number>": the spec shows both bounds; an open range is not stated (K18).', scope: LISTS_SCOPE },
  { name: 'lists-reversed-range-422', description: 'A range whose [from] is after its [to] is refused with 422 Unprocessable Content instead of answered empty.',
    basis: 'stated-behaviour: a range selects the values from [from] to [to] (§4.2 "Range = from/to is allowed"); with from after to nothing is in it, and refusing it with any 4xx returns no record the caller excluded (K34).', scope: LISTS_SCOPE },
  { name: 'lists-empty-200', description: 'A list with no matching record answers 200 with `{"_page":1,"_links":{…},"_embedded":{"<list>":[]}}` instead of 204 with no body.',
    basis: 'open-point: §4.2 "Response body of list endpoints: not shown"; 204 is how the live service answers (docs/field-notes.md), an empty page is as true an empty answer.', scope: LISTS_SCOPE },
  { name: 'lists-id-descending', description: 'List records come newest first (id descending) instead of id ascending.',
    basis: 'open-point: §4.2 "Response body of list endpoints: not shown" and no sort order is stated; rules compare records as sets.', scope: LISTS_SCOPE },
  { name: 'lists-small-pages', description: 'A list page holds at most 20 records (default 10) whatever `limit` asks, with `_links.next` to the rest.',
    basis: 'open-point: paging is not in the spec (§4.2 "Response body of list endpoints: not shown"); the 250 limit is the live service\'s (docs/field-notes.md), a smaller page is another server\'s choice.', scope: LISTS_SCOPE },
  { name: 'lists-plain-json-no-links', description: 'List answers are plain `application/json` without any `_links` (list or record); more pages are read with `page`.',
    basis: 'open-point: §4.2 "Response body of list endpoints: not shown"; HAL and its links are the live service\'s shape (docs/field-notes.md), not the spec\'s.', scope: LISTS_SCOPE },
  { name: 'lists-slow-filtered', description: 'The first filtered answer of each list is held 10 s before it is sent.',
    basis: 'effect-window: a hang is an answer slower than 30 s; a filter over a large list can take seconds.', scope: LISTS_SCOPE },
  { name: 'lists-filters-any', description: 'Several filter parameters in one request are combined as alternatives (OR): a record matching any of them is returned.',
    basis: 'open-point: §4.2 names each parameter ("filter[id] … By ids", "filter[name] … By name") and says "Filter parameters are sent as query parameters", not how several combine (K20, REQ-4.2-combined-parameters: another combination than AND is recorded).', scope: LISTS_SCOPE },
  // (end of lists)

  // ---- Chat: connection, participants, messages, delivery status, scope (§2.4–§2.9, §3.2, §3.3)
  // (end of chat, first part)

  // ---- Chat: chats, new_message, edits, history, typing, reactions, signature, effects (§4.3, §5.2, §6)
  // (end of chat, second part)
] as const);

export type VariationName = (typeof VARIATIONS)[number]['name'];

/** The variation switches of one emulator instance (src/emulator/switches.ts). */
export class VariationSwitches extends Switches<VariationName> {
  constructor(initial: readonly string[] = []) {
    super('variation', VARIATIONS.map((v) => v.name), initial);
  }
}

export function isVariationName(name: string): name is VariationName {
  return VARIATIONS.some((v) => v.name === name);
}
