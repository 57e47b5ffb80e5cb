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
  { name: 'access-token-lifetime-2h', description: 'Access tokens live 2 hours: expires_in 7200 and the JWT\'s exp 7200 s after iat.',
    basis: 'lifetime: §2.2 "Lifetime is returned as expires_in"; §8 "returned in expires_in, seconds". Lifetimes are probed from expires_in, not from a constant (K41).' },
  { name: 'access-token-lifetime-48h', description: 'Access tokens live 48 hours: expires_in 172800 and the JWT\'s exp 172800 s after iat.',
    basis: 'lifetime: §2.2 "Lifetime is returned as expires_in"; a token probed after 24 h + 10 min is still valid and rightly accepted (K41).' },
  { name: 'jwt-hs256', description: 'Access and long-lived tokens are JWTs signed HS256 with a key only the emulator holds.',
    basis: 'rfc-unstated: §2.2 says only "JWT"; RFC 7518 §3.2 HS256 is a JWS algorithm, and the issuer is the only verifier (K24).' },
  { name: 'jwt-without-jti', description: 'Access tokens carry no jti claim, a random sid instead (the emulator keeps them by value).',
    basis: 'rfc-unstated: §2.2 says only "JWT"; RFC 7519 §4.1.7 makes jti optional; distinct tokens are what §2.3 needs (K25).' },
  { name: 'jwt-without-exp-iat', description: 'Access tokens carry no exp and no iat claim; their lifetime is still expires_in, enforced by the emulator.',
    basis: 'rfc-unstated: the spec names no claim, it returns the lifetime as expires_in (§2.2); exp and iat are optional (RFC 7519 §4.1.4, §4.1.6) — non_strict (K1).' },
  { name: 'server-time-skewed', description: 'server_time in token answers is 3 minutes ahead of the emulator\'s clock.',
    basis: 'answer-member: §2.3 "server_time int: Server time of the response, timestamp" states no tolerance; a skew is recorded, never failed (K4).' },
  { name: 'token-no-cache-control', description: 'Token answers carry no Cache-Control and no Pragma header.',
    basis: 'rfc-unstated: RFC 6749 §5.1 no-store is not restated by §4.1 or §2.3 — non_strict (K26).' },
  { name: 'token-errors-401', description: 'Refusals for client authentication (invalid_client) and for a used or revoked refresh token are 401, as the live service answers "Token has been revoked".',
    basis: 'status-code: §4.1 "Response 400"; another 4xx is non_strict; RFC 6749 §5.2 allows 401 for invalid_client; docs/field-notes.md (live 401).' },
  { name: 'token-errors-problem-json', description: 'Token refusals are application/problem+json: {title, type, status, detail, hint}.',
    basis: 'stated-behaviour: §4.1 "response Content-Type: application/json (also on error)"; another JSON media type is non_strict (REQ-4.1-exchange-error-json); the live service sends problem+json (docs/field-notes.md).' },
  { name: 'token-coerces-wrapped-values', description: 'A token request field sent as a one-element array of a string (["<value>"]) is read as that string.',
    basis: 'wrong-type: a value of another JSON type coerced and accepted is non_strict; only a value that is not the right one, accepted, fails (K15).' },
  { name: 'refresh-requires-secret', description: 'A refresh exchange without client_secret is refused with 400.',
    basis: 'status-code: §4.1 lists client_secret "as optional for the refresh grant" — listed, not promised; a refusal is non_strict (K12).' },
  { name: 'refresh-ignores-redirect-uri', description: 'The refresh grant does not compare redirect_uri (a differing one is accepted).',
    basis: 'security + unmarked-member: RFC 6749 §6 defines no redirect_uri on refresh; §4.1 requires the exact match of the code grant (REQ-5.1-redirect-identical) — non_strict on refresh (K28).' },
  { name: 'code-replay-keeps-tokens', description: 'A replayed authorization code is refused, but the tokens first issued from it stay valid.',
    basis: 'rfc-unstated: RFC 6749 §4.1.2 "SHOULD revoke" is not restated by the spec — non_strict (K10).' },
  { name: 'refresh-replay-revokes-family', description: 'Replaying an already exchanged refresh token revokes every token of its grant (the whole family).',
    basis: 'rfc-unstated/open-point: RFC 6749 §10.4 lets a server revoke the family on replay; §3.1 leaves it open — recorded (K14).' },
  { name: 'www-authenticate-extra-params', description: 'Bearer challenges carry realm and error_description besides error: `Bearer realm="api", error="invalid_token", error_description="…"`.',
    basis: 'rfc-unstated: RFC 6750 §3 allows realm, scope, error, error_description and error_uri in the challenge (K30).' },
  { name: 'www-authenticate-without-error', description: 'Every 401 of the account API carries a bare `Bearer realm="api"` challenge, without error.',
    basis: 'rfc-unstated: RFC 6750 §3.1 error="invalid_token" is not restated by the spec — non_strict (K30).' },
  { name: 'bearer-scheme-exact-case', description: 'Only the scheme spelt "Bearer" is accepted; "bearer" and "BEARER" get 401.',
    basis: 'rfc-unstated: §4.1 and §5.1 write "Bearer"; the RFC\'s case-insensitivity is not restated — non_strict (K29).' },
  { name: 'redirect-uri-equivalent-spellings', description: 'redirect_uri is compared after RFC 3986 normalisation: host case, an explicit default port, dot segments, percent-encoded unreserved letters.',
    basis: 'security + open-point: §4.1 "must match exactly"; a spelling of the same URI reaches nothing else, so its acceptance is recorded (REQ-4.1-exchange-redirect-equivalent-forms, K27); any other variant is still refused.' },
  { name: 'state-empty-when-absent', description: 'A redirect without a state passed carries an empty `state=`.',
    basis: 'stated-behaviour: §4.1 "If not passed, it is not returned"; an empty state= is non_strict (REQ-4.1-page-state-absent, K5).' },
  { name: 'from-widget-zero', description: 'A plain Allow redirect carries `from_widget=0`.',
    basis: 'stated-behaviour: §4.1 from_widget "only when a hook is sent after a widget installation"; present with a falsy value is non_strict (REQ-4.1-allow-no-from-widget, K6).' },
  { name: 'grant-page-coop', description: 'In post_message mode the access-granting page is served with Cross-Origin-Opener-Policy: same-origin, which severs the opened window from its opener.',
    basis: 'stated-behaviour/open-point: §4.1 post_message "the redirect happens inside the opened window … it may report the result to the main window"; whether it can is recorded (REQ-4.1-page-mode-post-message, K7).' },
  { name: 'disconnect-hook-retried', description: 'Each disconnect hook is delivered a second time, identical, 200 ms later (a retry queue).',
    basis: 'effect-window: §6 one hook per disconnect; an identical second delivery (a retry) is non_strict (REQ-6-disconnect-hook-once, K31).' },
  { name: 'hook-client-id-other', description: 'The disconnect hook\'s client_id is the account\'s chat-interface id (client_uuid and the signature stay the integration\'s).',
    basis: 'answer-member/open-point: §4.1 and §6 name client_id in the hook but not which id; the integration is identified by client_uuid (§5.3) — recorded (K32).' },
  { name: 'hook-signature-upper-hex', description: 'The disconnect hook\'s signature is the right HMAC-SHA256 in upper-case hex.',
    basis: 'security: §5.3 "hexadecimal HMAC-SHA256"; upper-case hex is the same value, non_strict for receivers that compare text (REQ-5.3-signature, K17).' },
  { name: 'api-v5-alias', description: '/api/v5/... is served as /api/v4/... (a newer version that keeps v4\'s answers).',
    basis: 'open-point: §9 "Account API paths carry the version v4"; other versions are neither promised nor forbidden — recorded (K40).' },
  { name: 'chat-405-without-allow', description: 'A chat route called with another method answers 405 without an Allow header.',
    basis: 'rfc-unstated: RFC 9110 §15.5.6 Allow is not restated by §4.3; a 405 passes with or without it (K38).', scope: CHAT_SCOPE },
  { name: 'chat-large-bodies-accepted', description: 'The chat interface takes bodies of any size (a 10 MB message is stored).',
    basis: 'robustness: the spec sets no size; a refusal or an acceptance both pass, only a 5xx, a reset or a hang fails (K36).', scope: CHAT_SCOPE },
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
  { name: 'chat-connect-echo-minimal', description: 'Connect answers `account_id` and `scope_id` only: title, hook_api_version and is_time_window_disabled are left out of the answer (the connection keeps them).',
    basis: 'answer-member: a listed member missing from an answer is non_strict; §4.3 connect "Response 200: the request fields plus scope_id" does not say the members are always there.', scope: CHAT_SCOPE },
  { name: 'chat-avatar-rehosted', description: 'A participant\'s avatar comes back in create-chat and history answers as a copy on the emulator\'s own file storage (`<base>/files/avatars/<id>`), not the URL sent.',
    basis: 'answer-member: media and avatar URLs may come back re-hosted (present, non-empty); §2.5 avatar "must be reachable from outside and serve a downloadable image".', scope: CHAT_SCOPE },
  { name: 'chat-media-rehosted', description: 'The history\'s `message.media` and `thumbnail` are copies on the emulator\'s own file storage (`<base>/files/media/<id>`), not the URL sent.',
    basis: 'answer-member: media URLs may come back re-hosted (present, non-empty); §2.7 media "must be downloadable", §4.3 history message[media] "Link to the file".', scope: CHAT_SCOPE },
  { name: 'chat-avatar-null', description: 'A participant given without avatar comes back with `avatar: null` instead of "".',
    basis: 'answer-member: "empty" spelt null where the spec says "avatar (empty if not given)" is non_strict (§2.5 responses).', scope: CHAT_SCOPE },
  { name: 'chat-avatar-omitted', description: 'A participant given without avatar comes back without an avatar member instead of "".',
    basis: 'answer-member: a listed member missing is non_strict; §4.3 history "Empty values may be omitted"; §2.5 "avatar (empty if not given)".', scope: CHAT_SCOPE },
  { name: 'chat-profile-null', description: 'A participant given without phone or email comes back with `phone: null` and `email: null` instead of leaving them out.',
    basis: 'answer-member: "empty" spelt null where §2.5 says "phone, email (both absent when not given)" is non_strict.', scope: CHAT_SCOPE },
  { name: 'chat-phone-normalised', description: 'A participant\'s phone comes back with digits only (`+1 000-000` → `1000000`), in answers and in the contact of the unsorted lead.',
    basis: 'answer-member: a phone in an equivalent spelling is non_strict (§2.5 "phone (string, optional)" states no format); the contact keeps the same number.', scope: CHAT_SCOPE },
  { name: 'chat-status-code-coerced', description: 'Delivery status accepts `status_code` as a string of digits ("1") and reads it as the number.',
    basis: 'wrong-type: a member of a stated JSON type coerced and accepted is non_strict (§4.3 Update delivery status "status_code int Required. 1, 2 or -1").', scope: CHAT_SCOPE },
  { name: 'chat-delivery-status-forward-only', description: 'A delivery status that goes back (read, then delivered; error, then delivered) is refused with 400; the message keeps its status.',
    basis: 'open-point: §3.3 "Transitions between delivery statuses: not shown".', scope: CHAT_SCOPE },
  { name: 'chat-error-text-905-only', description: 'A -1 delivery status with 901–904 and no error text is accepted (only 905 needs it).',
    basis: 'required-member read with §3.3: "905 Any other reason; error text must be sent with it" names the text for 905 only, so taking 901–904 without it is non_strict (§4.3 "Required only when status_code is -1").', scope: CHAT_SCOPE },
  { name: 'chat-shared-post-type-lenient', description: 'A shared_post whose type is not "post" is accepted (stored as given).',
    basis: 'enumeration: §2.8 "Post type; only post is supported" says what is supported, not what the request may carry: another type accepted is non_strict.', scope: CHAT_SCOPE },
  { name: 'chat-shared-post-url-lenient', description: 'A shared_post without url is accepted (stored with an empty url).',
    basis: 'unmarked-member: §2.8 url "Link to the post" is left unmarked beside optional siblings: accepted when missing is non_strict.', scope: CHAT_SCOPE },
  { name: 'chat-preview-always-downloaded', description: 'A shared_post\'s preview is always a downloaded copy: with both preview fields the preview_link is downloaded (the permalink is not preferred), with preview_permalink alone its image is downloaded too.',
    basis: 'open-point: what the account keeps of a preview is not shown in any answer of the spec (§2.8 "the image is downloaded into the account", "the image is not downloaded"): recorded, never failed.', scope: CHAT_SCOPE },
  { name: 'chat-history-unknown-scope-204', description: 'History under a scope_id that was never returned by connect answers 204 (no chat there) instead of 404.',
    basis: 'status-code: §7 "204 history: Chat does not exist or has no messages"; §4.3 names no code for an unknown scope_id, and nothing of another scope is shown.', scope: CHAT_SCOPE },
  { name: 'chat-chat-ids-by-conversation', description: 'A chat\'s chat-interface id is derived from the channel and its conversation_id, so the same conversation_id in two accounts gets the same chat id (the chats stay apart).',
    basis: 'security: only another account\'s data reached fails; §4.3 "id (string, chat id in the chat interface)" states no format and no uniqueness across scopes.', scope: CHAT_SCOPE },
  { name: 'chat-disconnected-scope-400', description: 'A request under a disconnected scope_id is refused with 400 (invalid data) instead of 404.',
    basis: 'status-code: §3.2 "not connected" names no code; §4.3 "400 when data is invalid": another 4xx than the one the kit prefers is at worst non_strict.', scope: CHAT_SCOPE },
  // (end of chat, first part)

  // ---- Chat: chats, new_message, edits, history, typing, reactions, signature, effects (§4.3, §5.2, §6)
  { name: 'chat-new-message-answer-without-ids', description: 'The new_message answer of a new or edited message leaves out conversation_id and ref_id (sender_id, receiver_id and msgid stay).',
    basis: 'answer-member: a listed member missing from an answer is non_strict (C35); §4.3 "Response 200 … new_message[conversation_id] … new_message[ref_id]" lists them without saying they are always there.', scope: CHAT_SCOPE },
  { name: 'chat-receiver-id-omitted', description: 'The new_message answer of an incoming message leaves receiver_id out instead of sending null.',
    basis: 'answer-member: a listed member missing is non_strict (C36); §4.3 "new_message[receiver_id] | string or null", and an incoming message has "no payload.receiver".', scope: CHAT_SCOPE },
  { name: 'chat-edit-answer-empty', description: 'An edit_message is answered 200 with no body (no new_message object).',
    basis: 'stated-behaviour: §4.3 rule 4, "An edit … carries message and the identifying ids"; the new_message answer is stated for messages, so an edit answered 200 without it passes (C42).', scope: CHAT_SCOPE },
  { name: 'chat-edit-ignored-fields-refused', description: 'An edit_message carrying source, sender, receiver, reply_to or forwards is refused with 400 (invalid data).',
    basis: 'stated-behaviour: §4.3 payload table, source, sender, receiver, reply_to and forwards are "Ignored on edit"; refusing such an edit with 400 is non_strict (C43), not failed.', scope: CHAT_SCOPE },
  { name: 'chat-history-empty-values-omitted', description: 'History elements leave out empty values: an empty text and an empty avatar are not sent.',
    basis: 'answer-member: §4.3 "Get chat history … Empty values may be omitted."', scope: CHAT_SCOPE },
  { name: 'chat-history-empty-as-200', description: 'History of a chat that does not exist or has no messages answers 200 with `{"messages":[]}` instead of 204.',
    basis: 'status-code: another code of the same class (C51); §4.3 "204 when the chat does not exist or has no messages", §7 "204 | history".', scope: CHAT_SCOPE },
  { name: 'chat-history-limit-over-max-422', description: 'History with limit above 50 is refused with 422 instead of 400.',
    basis: 'status-code: another 4xx where 400 is stated is non_strict (C53); §8 "History limit | maximum 50 per request", §4.3 "400 when data is invalid".', scope: CHAT_SCOPE },
  { name: 'chat-history-query-clamped', description: 'History reads offset and limit with parseInt, clamped to their minimum: negative, fractional and non-numeric values are answered, not refused.',
    basis: 'wrong-type: a value coerced or clamped and accepted is non_strict (C55); §4.3 "offset | int", "limit | int", "400 when data is invalid".', scope: CHAT_SCOPE },
  { name: 'chat-repeat-refused', description: 'A call that finds nothing to change is refused with 400: a disconnect of a channel the account has not connected, an unreact where the user has no reaction, a delivery status the message already has.',
    basis: 'status-code with robustness: §3.2 shows no transition from not connected and §3.3 none between equal statuses ("Transitions between delivery statuses: not shown"), and an unreact of no reaction changes nothing; a refusal of such a repeat is non_strict (REQ-3.2-http-disconnect-repeated, REQ-3.3-http-delivery-status-repeated, REQ-4.3-http-react-repeated).', scope: CHAT_SCOPE },
  { name: 'chat-typing-answers-200', description: 'Typing is answered 200 with no body instead of 204.',
    basis: 'status-code: another 2xx where 204 is stated is non_strict; §4.3 typing "Response 204 (event accepted), no body".', scope: CHAT_SCOPE },
  { name: 'chat-typing-unvalidated', description: 'Typing without conversation_id or sender.id is accepted (204).',
    basis: 'unmarked-member: missing and accepted is non_strict (C56); §4.3 typing "Body: conversation_id (string …), duration_ms (int, optional …), sender[id] (string …)" marks only duration_ms.', scope: CHAT_SCOPE },
  { name: 'chat-react-emoji-required', description: 'A react (not an unreact) without emoji is refused with 400.',
    basis: 'status-code: REQ-4.3-react-emoji-optional reads a react without emoji refused with 400 as non_strict (C59): §4.3 "emoji | Optional. The reaction.", and a react names its reaction.', scope: CHAT_SCOPE },
  { name: 'chat-create-conversation-id-optional', description: 'Create chat without a string conversation_id is accepted and given a made-up one.',
    basis: 'unmarked-member and wrong-type (C34, C67): §4.3 create chat "conversation_id | string | Chat id on the integration side." is unmarked beside members marked Optional and Required.', scope: CHAT_SCOPE },
  { name: 'chat-silent-truthy', description: 'payload.silent is read for its truthiness: a string or a number is accepted.',
    basis: 'wrong-type: a value of another JSON type coerced and accepted is non_strict (C67); §4.3 "silent | bool".', scope: CHAT_SCOPE },
  { name: 'chat-validates-before-signature', description: 'Chat bodies are validated before the signature is checked: a bad body with a bad signature gets 400.',
    basis: 'status-code (C63): §4.3 "403 when the signature is incorrect; 400 when data is invalid" names no order; REQ-5.2-signature-first reads 400 there as non_strict.', scope: CHAT_SCOPE },
  { name: 'chat-reply-to-any-chat', description: 'reply_to may quote a message of another chat of the same account.',
    basis: 'stated-behaviour (C47): §4.3 reply_to "must belong to the same chat"; accepted with nothing of another account in it is non_strict (REQ-4.3-message-reply-same-chat).', scope: CHAT_SCOPE },
  { name: 'chat-forwards-ref-id-unchecked', description: 'forwards.conversation_ref_id is not looked up: a made-up chat id, or a chat of another account, is accepted (the forwarded message is the client\'s own).',
    basis: 'stated-behaviour (C48): §4.3 forwards "optional conversation_ref_id (the chat must belong to the integration)"; accepted with no foreign content is non_strict (REQ-4.3-message-forwards-ref-id-own).', scope: CHAT_SCOPE },
  { name: 'chat-comment-bot-accepted', description: 'A comment sent as the integration bot is accepted.',
    basis: 'stated-behaviour (C50): §4.3 "Allowed kinds: incoming from client … and outgoing reply from an account user"; a bot comment accepted is non_strict (REQ-4.3-comment-bot-refused).', scope: CHAT_SCOPE },
  { name: 'chat-first-message-notifies-twice', description: 'The first incoming message of a chat makes two notifications (one for the new chat, one for the message).',
    basis: 'effect-window (C40): REQ-2.6-first-message-only reads two notifications for the first message as non_strict; §4.3 rule 2 counts "one unsorted lead and one notification" only for a bulk import.', scope: CHAT_SCOPE },
  { name: 'chat-write-first-not-linked', description: 'A client\'s reply naming a write-first chat by conversation_ref_id is accepted but starts a chat of its own instead of continuing that one.',
    basis: 'open-point (C46): §4.3 conversation_ref_id "must be sent … so the two chats are linked"; REQ-4.3-message-conversation-ref-id-write-first judges the 200 and records whether the chats are linked (only the account shows it).', scope: CHAT_SCOPE },
  { name: 'chat-history-receive-time', description: 'History elements show the time the message was received as timestamp and msec_timestamp, not the time it was sent with.',
    basis: 'answer-member (C41): REQ-4.3-history-timestamps reads the receive time instead of the payload\'s as non_strict; §4.3 history "timestamp | int | Send time".', scope: CHAT_SCOPE },
  { name: 'chat-effects-late', description: 'Unsorted leads and notifications are recorded 10 s after the message that causes them was answered.',
    basis: 'effect-window (C66): "Response 200 (accepted for processing; the message appears after processing)"; an expected lead or notification may come within the 15 s window.',
    run: { fullWindows: true }, scope: CHAT_SCOPE },
  { name: 'chat-text-nfc', description: 'Every string of a chat body is stored in Unicode normalisation form C (a combining accent joined to its letter), so texts and names come back composed.',
    basis: 'answer-member: the same characters in another normalisation form (Unicode UAX #15) are not literally the text sent but the same text; the review reads it non_strict (K39).', scope: CHAT_SCOPE },
  { name: 'chat-answer-conversation-chat-id', description: 'The new_message answer gives the chat\'s chat-interface id as conversation_id instead of the conversation_id sent.',
    basis: 'answer-member: §4.3 "new_message[conversation_id] | string | Dialog id." names neither side; the chat-interface id of the message\'s own chat is that dialog\'s id too.', scope: CHAT_SCOPE },
  // (end of chat, second part)
] as const);

export type VariationName = (typeof VARIATIONS)[number]['name'];

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
