/**
 * The places table (issue 32): for the statements that govern more than one place of the protocol, the kind of place
 * they govern. The places of each kind come from the protocol (src/protocol/places.ts: the grants, the endpoints that
 * take a bearer, every route with each class of answer, the chat routes, the history pages), so a new endpoint or route
 * joins every statement that governs its kind. Which places a rule reaches is read from a traced run
 * (src/runner/trace.ts, written to reach.json by `npm run docs`); src/docs/places.ts pairs the two, and
 * test/specs/places.test.ts fails when a statement names a place none of its rules reaches and gives no reason.
 */
/** The kinds of place a statement can speak of; src/protocol/places.ts lists the places of each (PLACE_KINDS). */
export type PlaceKind = 'token answers' | 'bearer endpoints' | 'lists' | 'routes and answers' | 'chat routes' | 'chat GET routes' | 'history pages' | 'chat handles';

export interface Governs {
  readonly kind: PlaceKind;
  readonly statements: readonly string[];
  /**
   * Each case of the statement must reach each place (issue 39): a case is a kind of credential or handle its rules
   * name (`inCase`, src/rule-scope.ts), and a rule of the statement that names none is one case as a whole. Without it,
   * only named cases are asked to, and a place is reached when any rule of the statement reaches it.
   */
  readonly byCase?: boolean;
  /** Places of the kind a statement does not reach, with why (the statement's own words exclude it, or no request can). */
  readonly unreached?: Readonly<Record<string, string>>;
}

/** Statements and the kind of place each governs; a statement not listed governs the one place its rules check. */
export const GOVERNS: readonly Governs[] = [
  {
    kind: 'token answers',
    statements: [
      'REQ-2.3-token-type', 'REQ-2.3-expires-in', 'REQ-2.3-server-time', 'REQ-2.3-access-token', 'REQ-2.3-refresh-token',
      'REQ-2.2-access-token-jwt', 'REQ-2.2-jwt-signed', 'REQ-2.2-jwt-exp',
    ],
  },
  {
    kind: 'bearer endpoints',
    byCase: true,
    statements: [
      'REQ-4.1-api-bearer-header', 'REQ-5.1-bearer-every-request', 'REQ-3.1-long-lived-revoked', 'REQ-2.2-long-lived-revocable',
      'REQ-3.1-code-reuse-revokes-access', 'REQ-3.1-access-expired', 'REQ-2.2-jwt-exp-enforced',
      'REQ-3.1-deactivated-access-revoked', 'REQ-7-401-api', 'REQ-3.1-disconnect-revokes-tokens', 'REQ-0-base-url-per-account',
      'REQ-3.1-long-lived-expired', 'REQ-5.1-malformed-bearer', 'REQ-5.1-www-authenticate',
      'REQ-2.2-jwt-forgeries-refused', 'REQ-4.1-exchange-token-confusion',
    ],
  },
  {
    kind: 'lists',
    byCase: true,
    statements: ['REQ-1-rights-of-granting-user', 'REQ-4.2-access-follows-rights', 'REQ-5.1-rights-beyond-refused'],
  },
  {
    kind: 'routes and answers',
    // The 2xx of disconnect, delivery status, typing and react are stated to carry no body; a body sent anyway must
    // still be JSON (chat.signature.route.<route> reads it), so those places are reached, not excused.
    statements: ['REQ-0-bodies-json'],
  },
  {
    kind: 'chat routes',
    statements: [
      'REQ-5.2-x-signature', 'REQ-5.2-incorrect-403', 'REQ-5.2-missing-headers', 'REQ-5.2-content-type', 'REQ-5.2-content-md5',
      'REQ-5.2-signing-method', 'REQ-5.2-signing-md5', 'REQ-5.2-signing-content-type', 'REQ-5.2-signing-date', 'REQ-5.2-signing-path',
      'REQ-5.2-unsigned-headers', 'REQ-5.2-date-rfc2822', 'REQ-5.2-secret-per-channel',
    ],
  },
  {
    kind: 'chat routes',
    statements: ['REQ-5.2-date-current'],
    unreached: {
      'chat disconnect': 'a day-old disconnect a server takes cuts the channel it names; a channel of its own (second-channel) would skip chat.signature.replay on a target without a control API or CHANNEL_ID_2',
    },
  },
  { kind: 'chat GET routes', statements: ['REQ-5.2-content-md5-get', 'REQ-5.2-signing-no-query'] },
  { kind: 'history pages', statements: ['REQ-4.3-history-offset', 'REQ-4.3-history-limit'] },
  {
    // Another account's or another channel's chat, reached by no handle a request can name it by (issue 39 item 2).
    kind: 'chat handles',
    statements: ['REQ-2.4-scope-id-per-account', 'REQ-2.4-scope-id-per-channel'],
    unreached: {
      'handle typing conversation': 'typing stores nothing a later request can read (no API reads typing state, REQ-8-typing-default): no request can show a typing event crossing into another scope\'s chat',
    },
  },
];
