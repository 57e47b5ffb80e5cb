/**
 * The reading policy: how a statement's wording becomes a verdict, written once (docs/verdicts.md, "How a statement's
 * wording becomes a verdict"). Each reading has a short stable name; the requirement inventory (specs/requirements/)
 * names the reading of every statement, and checks cite these names when they judge. The table of docs/verdicts.md is
 * generated from READINGS (src/docs/readings.ts), so the two never drift.
 *
 * Every outcome text states what the reading itself decides. Whatever the reading, a 5xx, a connection reset or a hang
 * (an answer slower than POLICY_HANG_MS) is `failed` (docs/verdicts.md, "How a rule's verdict is decided").
 */

/** The verdicts a reading decides between (the other two, skipped and errored, say that no verdict was reached). */
export type Outcome = 'passed' | 'non_strict' | 'failed' | 'informational';

export const OUTCOMES: readonly Outcome[] = ['passed', 'non_strict', 'failed', 'informational'];

/** An answer slower than this is a hang. */
export const POLICY_HANG_MS = 30_000;
/** An expected lead, notification, counter or history entry shows within this window; a forbidden one is watched as long. */
export const POLICY_EFFECT_WINDOW_MS = 15_000;
/** An expected hook arrives within this window; a forbidden one is watched as long. */
export const POLICY_HOOK_WINDOW_MS = 30_000;

/** What `failed` is under a reading that judges nothing itself: the breakages the runner fails in every rule. */
export const BREAKAGE = 'only a 5xx, a connection reset or a hang (an answer slower than 30 s)';

/** The sentence under each outcome when a reading gives that outcome nothing of its own. */
export const NONE = '—';

export interface PolicyReading {
  /** A short title: what the reading is about. */
  readonly title: string;
  /** The spec's words the reading applies to. */
  readonly applies: string;
  readonly passed: string;
  readonly non_strict: string;
  readonly failed: string;
  readonly informational: string;
}

export const READINGS = {
  'status-code': {
    title: 'Status codes',
    applies: 'a stated status code ("Response 200", "answers 403", "404: channel does not exist"), or a stated success or refusal',
    passed: 'the stated code',
    non_strict: 'another code of the same class (another 2xx where a 2xx is stated, another 4xx where a 4xx is stated)',
    failed: 'success where the spec demands refusal, or refusal where it demands success',
    informational: NONE,
  },
  'required-member': {
    title: 'Required members',
    applies: 'a request member the spec calls "required", or "optional if X is given" (required when X is not)',
    passed: 'the request without it refused with the stated code (400)',
    non_strict: 'refused with another 4xx',
    failed: 'the request without it accepted',
    informational: NONE,
  },
  'unmarked-member': {
    title: 'Unmarked members',
    applies: 'a request member left unmarked in a table whose siblings are marked optional',
    passed: 'the request without it refused with the stated code (400)',
    non_strict: 'refused with another 4xx, or accepted without it',
    failed: 'refused where the member is given (the request is otherwise valid)',
    informational: NONE,
  },
  'wrong-type': {
    title: 'Wrong JSON types',
    applies: 'a member of a stated JSON type (string, int, bool, object, array) sent as a value of another JSON type',
    passed: 'refused with the stated code (400)',
    non_strict: 'refused with another 4xx, or coerced or ignored and accepted',
    failed: 'accepted where that breaks security: a secret, code or token of another type, not equal to the right one, accepted (read as `security`)',
    informational: NONE,
  },
  enumeration: {
    title: 'Enumerated values',
    applies: 'a value outside a set the spec enumerates: event_type, message type, hook_api_version, reaction type, status_code, error_code, grant_type (not shared_post.type: "only post is supported" says what is supported, not what the request may carry)',
    passed: 'refused with the stated code (400); every listed value accepted',
    non_strict: 'refused with another 4xx',
    failed: 'a value outside the set accepted, or a listed value refused',
    informational: NONE,
  },
  'answer-member': {
    title: 'Members of answers',
    applies: 'a member an answer is said to carry ("Response 200: …", a response or history table)',
    passed: 'present with the stated type and value; extra members (always allowed); member order (never matters); in history, an empty value omitted; a media or avatar URL re-hosted (present, non-empty) rather than the URL sent',
    non_strict: 'a listed member missing, unless the spec says it is always there; "empty" spelt null or "" where the spec says absent or empty, or the reverse',
    failed: 'a member of another type or value than stated; a member missing that the spec says is always there; a member present that the spec says is absent',
    informational: NONE,
  },
  'rfc-unstated': {
    title: 'RFC and HTTP statements the spec relies on but does not restate',
    applies: 'Cache-Control on token answers, the WWW-Authenticate challenge, the bearer scheme\'s case, JWT claims beyond those the spec names, 404/405/413/414/415 of plain HTTP',
    passed: 'as the RFC states',
    non_strict: 'a departure from the RFC',
    failed: 'a departure that breaks security: a credential leak, an accepted forgery, a bypass (read as `security`)',
    informational: NONE,
  },
  security: {
    title: 'Security',
    applies: 'a statement whose breach leaks a credential, accepts a forgery or bypasses a check: signatures, secrets, binding of codes and tokens, other accounts\' data, TLS',
    passed: 'the forgery, replay or foreign request refused with the stated code; no credential in an answer',
    non_strict: 'refused with another code of the same class',
    failed: 'a credential leaked, a forgery or replay accepted, another account\'s or scope\'s data reached',
    informational: NONE,
  },
  'stated-behaviour': {
    title: 'Stated behaviour and values',
    applies: 'what the spec says the service does or what a value means ("the code is exchanged for the token pair", "filter[id] returns the records whose id is among the values")',
    passed: 'observed as stated',
    non_strict: 'observed in a form the wording allows but does not state (another 2xx, an equivalent spelling)',
    failed: 'the opposite observed: the stated effect missing, or another value than stated',
    informational: NONE,
  },
  'open-point': {
    title: 'Open points',
    applies: '"not shown", "may", "can", "not stated", what the spec leaves to the service',
    passed: NONE,
    non_strict: NONE,
    failed: BREAKAGE,
    informational: 'what the target does, recorded',
  },
  robustness: {
    title: 'Robustness the spec does not state',
    applies: 'odd input the spec says nothing about (malformed, oversized, any query): the service answers it',
    passed: 'any answer that is not a breakage: a refusal (4xx) or an acceptance (2xx)',
    non_strict: NONE,
    failed: 'a 5xx, a connection reset or a hang',
    informational: NONE,
  },
  'effect-window': {
    title: 'Time: hangs and effect windows',
    applies: 'an effect that comes after the answer: a lead, a notification, a counter or a history entry (15 s), a hook (30 s); a hang is an answer slower than 30 s',
    passed: 'an expected effect seen within its window, however late in it; a forbidden one not seen for the whole window',
    non_strict: NONE,
    failed: 'an expected effect not seen by the end of its window; a forbidden one seen at any time within it',
    informational: NONE,
  },
  lifetime: {
    title: 'Lifetimes',
    applies: 'a lifetime: probed from what the server said (expires_in, the JWT\'s exp) or the spec\'s stated span (20 minutes, 3 months, the chosen expiry), not from a constant of the kit',
    passed: 'accepted before the stated end and refused after it',
    non_strict: NONE,
    failed: 'refused before the stated end, or accepted after it (beyond the margin the wording leaves: "3 months" is read up to 93 days)',
    informational: 'what happens inside the margin the wording leaves',
  },
  precondition: {
    title: 'Set-up steps',
    applies: 'a step a rule takes before its observation (connect, create a chat, send a message, exchange a code)',
    passed: 'the step got what its own reading accepts (another 2xx, an answer without a body): the rule goes on',
    non_strict: NONE,
    failed: 'the step broke (a 5xx, a reset, a hang) or was refused where the spec demands success: the target\'s failure in every rule that shares it, not an error of the kit',
    informational: NONE,
  },
  'one-observation': {
    title: 'One observation, one verdict',
    applies: 'a side detail of an exchange that another statement owns (a content type, a body member, an echo)',
    passed: 'the point of the rule observed as stated, whatever the side detail',
    non_strict: NONE,
    failed: 'only the rule\'s own point: the side detail is judged once, by the rule of the statement that owns it',
    informational: NONE,
  },
} as const satisfies Record<string, PolicyReading>;

export type ReadingName = keyof typeof READINGS;

export const READING_NAMES = Object.keys(READINGS) as ReadingName[];
