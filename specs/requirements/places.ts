/**
 * The places table (issue 32): for the statements that govern more than one place of the protocol, which places they
 * govern. The places themselves come from the protocol (src/protocol/places.ts: the grants, the endpoints that take a
 * bearer, every route with each class of answer, the chat routes, the history pages), so a new endpoint or route joins
 * every statement that governs its kind; what is written here is only which kind of place a statement speaks of.
 * Which places a rule reaches is read from a traced run (src/runner/reach.ts, written to reach.json by `npm run docs`);
 * test/specs/places.test.ts fails when a statement names a place none of its rules reaches and gives no reason.
 */
import {
  answerClasses, BEARER_ENDPOINTS, bearerPlace, CHAT_ROUTES, chatPlace, grantAnswer, GRANTS, HISTORY_PAGES, historyPlace, ROUTES, routePlace,
} from '../../src/protocol/places.js';
import { REQUIREMENTS, type Requirement } from './index.js';

/** The kinds of place a statement can speak of, each the list of its places. */
export const PLACE_KINDS = {
  'token answers': { what: 'the 200 answer of each grant (§2.3 is the answer of both)', places: GRANTS.map(grantAnswer) },
  'bearer endpoints': { what: 'every endpoint that takes a bearer: the account and the four lists', places: BEARER_ENDPOINTS.map(bearerPlace) },
  'routes and answers': {
    what: 'every route with each class of answer (success, refusal, and the wrong-method refusal where it is probed)',
    places: ROUTES.flatMap((route) => answerClasses(route).map((a) => routePlace(route, a))),
  },
  'chat routes': { what: 'every route of the chat interface', places: CHAT_ROUTES.map(chatPlace) },
  'chat GET routes': { what: 'the chat routes read with GET (history)', places: [chatPlace('history')] },
  'history pages': { what: 'the first page, a full page further on and the short last page of a history longer than a page', places: HISTORY_PAGES.map(historyPlace) },
} as const;

export type PlaceKind = keyof typeof PLACE_KINDS;

interface Governs {
  readonly kind: PlaceKind;
  readonly statements: readonly string[];
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
    statements: [
      'REQ-4.1-api-bearer-header', 'REQ-5.1-bearer-every-request', 'REQ-3.1-long-lived-revoked', 'REQ-2.2-long-lived-revocable',
      'REQ-3.1-code-reuse-revokes-access',
    ],
  },
  {
    kind: 'routes and answers',
    statements: ['REQ-0-bodies-json'],
    // "unless stated otherwise": these answers are stated to carry no body.
    unreached: {
      'chat disconnect 2xx': 'stated otherwise: §4.3 Disconnect channel, "Response 200 with no body"',
      'chat deliveryStatus 2xx': 'stated otherwise: §4.3 Update delivery status, "Response 200 with no body"',
      'chat typing 2xx': 'stated otherwise: §4.3 Typing indicator, "Response 204 (event accepted), no body"',
      'chat react 2xx': 'stated otherwise: §4.3 Reaction, "Response 200 (accepted for processing), no body"',
    },
  },
  {
    kind: 'chat routes',
    statements: [
      'REQ-5.2-x-signature', 'REQ-5.2-incorrect-403', 'REQ-5.2-missing-headers', 'REQ-5.2-content-type', 'REQ-5.2-content-md5',
      'REQ-5.2-signing-method', 'REQ-5.2-signing-md5', 'REQ-5.2-signing-content-type', 'REQ-5.2-signing-date', 'REQ-5.2-signing-path',
    ],
  },
  { kind: 'chat GET routes', statements: ['REQ-5.2-content-md5-get', 'REQ-5.2-signing-no-query'] },
  { kind: 'history pages', statements: ['REQ-4.3-history-offset', 'REQ-4.3-history-limit'] },
];

/** One (statement, place) pair of the table, with the statement's rules that reach the place. */
export interface PlacePair {
  readonly statement: string;
  readonly kind: PlaceKind;
  readonly place: string;
  readonly reachedBy: readonly string[];
  readonly unreached?: string;
}

/** Every (statement, place) pair the table names, with what `reach` (rule id → places) says reaches it. */
export function placePairs(reach: Readonly<Record<string, readonly string[]>>, inventory: readonly Requirement[] = REQUIREMENTS): PlacePair[] {
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
