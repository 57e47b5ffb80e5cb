/**
 * The allowed variations of the code every area shares: the answers on their way out (./answer-variations.ts) and the
 * account API's address (./account-address.ts) and the chat interface's origin (./index.ts), each read here with `variations.isOn('<name>')`
 * (test/faults/areas.test.ts checks it). ./variations.ts assembles every area's table.
 */
import { defineVariations } from './switches.js';

export const GENERAL_VARIATIONS = defineVariations([
  // Answers in general (./answer-variations.ts): JSON is compared by value, extra members are allowed, a slow answer is an answer
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
  // The service's traffic (./traffic.ts): a rate limit the spec leaves open
  { name: 'every-hundredth-429', description: 'Every hundredth request to the service (account API, token endpoint, the access-granting page and its navigations, chat interface; not the control API) is answered 429 Too Many Requests with Retry-After: 1, before anything of it is done.',
    basis: 'rate-limit: §8 "Rate limits: not shown"; the live service answers 429 above ~7 requests/s (docs/field-notes.md). A 429 is never a verdict (K21): the kit waits its Retry-After and sends again, the browser\'s navigations as its own requests.' },
  // Account API paths (./account-address.ts; §9)
  // Where the interfaces are served (./shape.ts, ./index.ts)
  { name: 'chat-origin-own-port', description: 'On the deployed shape, the chat interface is served on a port of its own (CHAT_URL `<scheme>://127.0.0.1:<another port>`), not at `amojo.<accountDomain>` on the instance\'s port. Read when the emulator starts.',
    basis: 'open-point: the spec names `{chat_url}` as the chat interface\'s own address, apart from `{base_url}`; which origin it is stays the service\'s to choose.',
    run: { shapes: ['deployed'] } },
  { name: 'api-v5-alias', description: '/api/v5/... is served as /api/v4/... (a newer version that keeps v4\'s answers).',
    basis: 'open-point: §9 "Account API paths carry the version v4"; other versions are neither promised nor forbidden — recorded (K40).' },
] as const);
