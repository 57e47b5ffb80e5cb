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
  // (end of chat, first part)

  // ---- Chat: chats, new_message, edits, history, typing, reactions, signature, effects (§4.3, §5.2, §6)
  { name: 'chat-new-message-answer-without-ids', description: 'The new_message answer of a new or edited message leaves out conversation_id and ref_id (sender_id, receiver_id and msgid stay).',
    basis: 'answer-member: a listed member missing from an answer is non_strict (C35); §4.3 "Response 200 … new_message[conversation_id] … new_message[ref_id]" lists them without saying they are always there.' },
  { name: 'chat-receiver-id-omitted', description: 'The new_message answer of an incoming message leaves receiver_id out instead of sending null.',
    basis: 'answer-member: a listed member missing is non_strict (C36); §4.3 "new_message[receiver_id] | string or null", and an incoming message has "no payload.receiver".' },
  { name: 'chat-edit-answer-empty', description: 'An edit_message is answered 200 with no body (no new_message object).',
    basis: 'stated-behaviour: §4.3 rule 4, "An edit … carries message and the identifying ids"; the new_message answer is stated for messages, so an edit answered 200 without it passes (C42).' },
  { name: 'chat-edit-ignored-fields-refused', description: 'An edit_message carrying source, sender, receiver, reply_to or forwards is refused with 400 (invalid data).',
    basis: 'stated-behaviour: §4.3 payload table, source, sender, receiver, reply_to and forwards are "Ignored on edit"; refusing such an edit with 400 is non_strict (C43), not failed.' },
  { name: 'chat-history-empty-values-omitted', description: 'History elements leave out empty values: an empty text and an empty avatar are not sent.',
    basis: 'answer-member: §4.3 "Get chat history … Empty values may be omitted."' },
  { name: 'chat-history-empty-as-200', description: 'History of a chat that does not exist or has no messages answers 200 with `{"messages":[]}` instead of 204.',
    basis: 'status-code: another code of the same class (C51); §4.3 "204 when the chat does not exist or has no messages", §7 "204 | history".' },
  { name: 'chat-history-limit-over-max-422', description: 'History with limit above 50 is refused with 422 instead of 400.',
    basis: 'status-code: another 4xx where 400 is stated is non_strict (C53); §8 "History limit | maximum 50 per request", §4.3 "400 when data is invalid".' },
  { name: 'chat-history-query-clamped', description: 'History reads offset and limit with parseInt, clamped to their minimum: negative, fractional and non-numeric values are answered, not refused.',
    basis: 'wrong-type: a value coerced or clamped and accepted is non_strict (C55); §4.3 "offset | int", "limit | int", "400 when data is invalid".' },
  { name: 'chat-typing-answers-200', description: 'Typing is answered 200 with no body instead of 204.',
    basis: 'status-code: another 2xx where 204 is stated is non_strict; §4.3 typing "Response 204 (event accepted), no body".' },
  { name: 'chat-typing-unvalidated', description: 'Typing without conversation_id or sender.id is accepted (204).',
    basis: 'unmarked-member: missing and accepted is non_strict (C56); §4.3 typing "Body: conversation_id (string …), duration_ms (int, optional …), sender[id] (string …)" marks only duration_ms.' },
  { name: 'chat-react-emoji-required', description: 'A react (not an unreact) without emoji is refused with 400.',
    basis: 'status-code: REQ-4.3-react-emoji-optional reads a react without emoji refused with 400 as non_strict (C59): §4.3 "emoji | Optional. The reaction.", and a react names its reaction.' },
  { name: 'chat-create-conversation-id-optional', description: 'Create chat without a string conversation_id is accepted and given a made-up one.',
    basis: 'unmarked-member and wrong-type (C34, C67): §4.3 create chat "conversation_id | string | Chat id on the integration side." is unmarked beside members marked Optional and Required.' },
  { name: 'chat-silent-truthy', description: 'payload.silent is read for its truthiness: a string or a number is accepted.',
    basis: 'wrong-type: a value of another JSON type coerced and accepted is non_strict (C67); §4.3 "silent | bool".' },
  { name: 'chat-validates-before-signature', description: 'Chat bodies are validated before the signature is checked: a bad body with a bad signature gets 400.',
    basis: 'status-code (C63): §4.3 "403 when the signature is incorrect; 400 when data is invalid" names no order; REQ-5.2-signature-first reads 400 there as non_strict.' },
  { name: 'chat-reply-to-any-chat', description: 'reply_to may quote a message of another chat of the same account.',
    basis: 'stated-behaviour (C47): §4.3 reply_to "must belong to the same chat"; accepted with nothing of another account in it is non_strict (REQ-4.3-message-reply-same-chat).' },
  { name: 'chat-forwards-ref-id-unchecked', description: 'forwards.conversation_ref_id is not looked up: a made-up chat id, or a chat of another account, is accepted (the forwarded message is the client\'s own).',
    basis: 'stated-behaviour (C48): §4.3 forwards "optional conversation_ref_id (the chat must belong to the integration)"; accepted with no foreign content is non_strict (REQ-4.3-message-forwards-ref-id-own).' },
  { name: 'chat-comment-bot-accepted', description: 'A comment sent as the integration bot is accepted.',
    basis: 'stated-behaviour (C50): §4.3 "Allowed kinds: incoming from client … and outgoing reply from an account user"; a bot comment accepted is non_strict (REQ-4.3-comment-bot-refused).' },
  { name: 'chat-first-message-notifies-twice', description: 'The first incoming message of a chat makes two notifications (one for the new chat, one for the message).',
    basis: 'effect-window (C40): REQ-2.6-first-message-only reads two notifications for the first message as non_strict; §4.3 rule 2 counts "one unsorted lead and one notification" only for a bulk import.' },
  { name: 'chat-write-first-not-linked', description: 'A client\'s reply naming a write-first chat by conversation_ref_id is accepted but starts a chat of its own instead of continuing that one.',
    basis: 'open-point (C46): §4.3 conversation_ref_id "must be sent … so the two chats are linked"; REQ-4.3-message-conversation-ref-id-write-first judges the 200 and records whether the chats are linked (only the account shows it).' },
  { name: 'chat-history-receive-time', description: 'History elements show the time the message was received as timestamp and msec_timestamp, not the time it was sent with.',
    basis: 'answer-member (C41): REQ-4.3-history-timestamps reads the receive time instead of the payload\'s as non_strict; §4.3 history "timestamp | int | Send time".' },
  { name: 'chat-effects-late', description: 'Unsorted leads and notifications are recorded 10 s after the message that causes them was answered.',
    basis: 'effect-window (C66): "Response 200 (accepted for processing; the message appears after processing)"; an expected lead or notification may come within the 15 s window.',
    run: { fullWindows: true } },
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
