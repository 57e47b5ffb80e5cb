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
}

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
  // (end of lists)

  // ---- Chat: connection, participants, messages, delivery status, scope (§2.4–§2.9, §3.2, §3.3)
  { name: 'chat-connect-echo-minimal', description: 'Connect answers `account_id` and `scope_id` only: title, hook_api_version and is_time_window_disabled are left out of the answer (the connection keeps them).',
    basis: 'answer-member: a listed member missing from an answer is non_strict; §4.3 connect "Response 200: the request fields plus scope_id" does not say the members are always there.' },
  { name: 'chat-avatar-rehosted', description: 'A participant\'s avatar comes back in create-chat and history answers as a copy on the emulator\'s own file storage (`<base>/files/avatars/<id>`), not the URL sent.',
    basis: 'answer-member: media and avatar URLs may come back re-hosted (present, non-empty); §2.5 avatar "must be reachable from outside and serve a downloadable image".' },
  { name: 'chat-media-rehosted', description: 'The history\'s `message.media` and `thumbnail` are copies on the emulator\'s own file storage (`<base>/files/media/<id>`), not the URL sent.',
    basis: 'answer-member: media URLs may come back re-hosted (present, non-empty); §2.7 media "must be downloadable", §4.3 history message[media] "Link to the file".' },
  { name: 'chat-avatar-null', description: 'A participant given without avatar comes back with `avatar: null` instead of "".',
    basis: 'answer-member: "empty" spelt null where the spec says "avatar (empty if not given)" is non_strict (§2.5 responses).' },
  { name: 'chat-avatar-omitted', description: 'A participant given without avatar comes back without an avatar member instead of "".',
    basis: 'answer-member: a listed member missing is non_strict; §4.3 history "Empty values may be omitted"; §2.5 "avatar (empty if not given)".' },
  { name: 'chat-profile-null', description: 'A participant given without phone or email comes back with `phone: null` and `email: null` instead of leaving them out.',
    basis: 'answer-member: "empty" spelt null where §2.5 says "phone, email (both absent when not given)" is non_strict.' },
  { name: 'chat-phone-normalised', description: 'A participant\'s phone comes back with digits only (`+1 000-000` → `1000000`), in answers and in the contact of the unsorted lead.',
    basis: 'answer-member: a phone in an equivalent spelling is non_strict (§2.5 "phone (string, optional)" states no format); the contact keeps the same number.' },
  { name: 'chat-status-code-coerced', description: 'Delivery status accepts `status_code` as a string of digits ("1") and reads it as the number.',
    basis: 'wrong-type: a member of a stated JSON type coerced and accepted is non_strict (§4.3 Update delivery status "status_code int Required. 1, 2 or -1").' },
  { name: 'chat-delivery-status-forward-only', description: 'A delivery status that goes back (read, then delivered; error, then delivered) is refused with 400; the message keeps its status.',
    basis: 'open-point: §3.3 "Transitions between delivery statuses: not shown".' },
  { name: 'chat-error-text-905-only', description: 'A -1 delivery status with 901–904 and no error text is accepted (only 905 needs it).',
    basis: 'required-member read with §3.3: "905 Any other reason; error text must be sent with it" names the text for 905 only, so taking 901–904 without it is non_strict (§4.3 "Required only when status_code is -1").' },
  { name: 'chat-shared-post-type-lenient', description: 'A shared_post whose type is not "post" is accepted (stored as given).',
    basis: 'enumeration: §2.8 "Post type; only post is supported" says what is supported, not what the request may carry: another type accepted is non_strict.' },
  { name: 'chat-shared-post-url-lenient', description: 'A shared_post without url is accepted (stored with an empty url).',
    basis: 'unmarked-member: §2.8 url "Link to the post" is left unmarked beside optional siblings: accepted when missing is non_strict.' },
  { name: 'chat-preview-always-downloaded', description: 'A shared_post\'s preview is always a downloaded copy: with both preview fields the preview_link is downloaded (the permalink is not preferred), with preview_permalink alone its image is downloaded too.',
    basis: 'open-point: what the account keeps of a preview is not shown in any answer of the spec (§2.8 "the image is downloaded into the account", "the image is not downloaded"): recorded, never failed.' },
  { name: 'chat-history-unknown-scope-204', description: 'History under a scope_id that was never returned by connect answers 204 (no chat there) instead of 404.',
    basis: 'status-code: §7 "204 history: Chat does not exist or has no messages"; §4.3 names no code for an unknown scope_id, and nothing of another scope is shown.' },
  { name: 'chat-chat-ids-by-conversation', description: 'A chat\'s chat-interface id is derived from the channel and its conversation_id, so the same conversation_id in two accounts gets the same chat id (the chats stay apart).',
    basis: 'security: only another account\'s data reached fails; §4.3 "id (string, chat id in the chat interface)" states no format and no uniqueness across scopes.' },
  { name: 'chat-disconnected-scope-400', description: 'A request under a disconnected scope_id is refused with 400 (invalid data) instead of 404.',
    basis: 'status-code: §3.2 "not connected" names no code; §4.3 "400 when data is invalid": another 4xx than the one the kit prefers is at worst non_strict.' },
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
