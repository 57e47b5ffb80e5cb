/**
 * The places of the protocol a statement can govern (issue 32): each grant's answer, each endpoint that takes a bearer,
 * each route with each class of answer, each chat route, and the first, a middle and the last page of a history. Derived
 * from the endpoint catalogue, the grants and the chat paths, so a new endpoint or route is a new place without a hand
 * edit; `placesOf` says which places one exchange reached, which is how a traced run tells the places a rule reaches.
 */
import type { HttpRequest, HttpResponse } from '../model/http.js';
import { CHAT_BASE, chatPaths } from './chat.js';
import { BEARER_ENDPOINTS, ENDPOINTS, LIST_ENDPOINTS, type Endpoint } from './endpoints.js';

/** The two grants whose 200 answer is the §2.3 token response object. */
export const GRANTS = ['authorization_code', 'refresh_token'] as const;
export type Grant = (typeof GRANTS)[number];

export const grantAnswer = (grant: Grant) => `${grant === 'authorization_code' ? 'code' : 'refresh'} grant 200` as const;

/**
 * A request to an endpoint that takes a bearer, with its method, whatever credential it carries (none, Basic, a bearer
 * of any kind): where a statement about credentials is checked.
 */
export const bearerPlace = (endpoint: Endpoint) => `bearer at ${endpoint.name}`;

/** The same at a later page of a list (`page` 2 or more, as `_links.next` names it): a server may check the bearer on the first page only. */
export const laterPagePlace = (endpoint: Endpoint) => `bearer at ${endpoint.name} page 2`;

/** The classes of answer a route's statements about bodies tell apart: success, refusal, and the wrong-method refusal. */
export type AnswerClass = '2xx' | '4xx' | '405';

export const CHAT_ROUTES = Object.keys(chatPaths) as readonly (keyof typeof chatPaths)[];
export type ChatRoute = (typeof CHAT_ROUTES)[number];

export const chatPlace = (route: ChatRoute) => `chat ${route}`;
export const routePlace = (route: string, answer: AnswerClass) => `${route} ${answer}`;

export const HISTORY_PAGES = ['first', 'middle', 'last'] as const;
export type HistoryPage = (typeof HISTORY_PAGES)[number];
export const historyPlace = (page: HistoryPage) => `history ${page} page`;
/** A history page that starts past the first 50 messages (§8 "maximum 50 per request"): only a chat longer than one full page has one. */
export const HISTORY_PAST_MAX = 'history page past 50';

/** The event kinds the message route carries (§4.3: a new message, its edit, a comment on a post). */
export const MESSAGE_EVENTS = ['new_message', 'edit_message', 'comment'] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];
export const messageEventPlace = (kind: MessageEvent) => `message ${kind}`;

/**
 * The handles a chat request can name a chat or a message by (issue 39 item 2): the ids in the path (history, delivery
 * status), and in a body a quote, a forward and its source chat either way, conversation_ref_id, a reaction's message
 * and its chat by conversation_ref_id, typing's conversation, an edit and a comment. An isolation statement governs
 * every one: under another scope each names a chat or message the request must not reach.
 */
export const CHAT_HANDLES = [
  'history path', 'delivery-status path', 'reply_to', 'forwards', 'forwards.conversation_id', 'forwards.conversation_ref_id',
  'conversation_ref_id', 'react message', 'react conversation_ref_id', 'typing conversation', 'edit', 'comment',
] as const;
export type ChatHandle = (typeof CHAT_HANDLES)[number];
export const handlePlace = (handle: ChatHandle) => `handle ${handle}`;

type Obj = Record<string, unknown>;
const objectAt = (o: unknown, key: string): Obj | undefined => {
  const v = o !== null && typeof o === 'object' ? (o as Obj)[key] : undefined;
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Obj : undefined;
};

/** The handles one chat request names a chat or message by. */
function handlesOf(route: ChatRoute, req: HttpRequest): ChatHandle[] {
  // Only a request the route serves names anything: another method is the route's wrong-method place.
  if (req.method !== (route === 'history' ? 'GET' : route === 'disconnect' ? 'DELETE' : 'POST')) return [];
  if (route === 'history') return ['history path'];
  if (route === 'deliveryStatus') return ['delivery-status path'];
  let body: unknown;
  try {
    body = JSON.parse(req.body?.toString() ?? '');
  } catch {
    return [];
  }
  const out: ChatHandle[] = [];
  const b = body as Obj;
  if (route === 'typing' && typeof b?.conversation_id === 'string') out.push('typing conversation');
  if (route === 'react') {
    if (b?.id !== undefined || b?.msgid !== undefined) out.push('react message');
    if (b?.conversation_ref_id !== undefined) out.push('react conversation_ref_id');
  }
  if (route !== 'message') return out;
  const payload = objectAt(b, 'payload');
  const kind = messageEventOf(req);
  if (kind === 'edit_message') out.push('edit');
  if (kind === 'comment') out.push('comment');
  const named = (e: unknown) => e !== null && typeof e === 'object' && ((e as Obj).id !== undefined || (e as Obj).msgid !== undefined);
  if (named(objectAt(objectAt(payload, 'reply_to'), 'message'))) out.push('reply_to');
  const forwards = objectAt(payload, 'forwards');
  if (Array.isArray(forwards?.messages) && forwards.messages.some(named)) out.push('forwards');
  if (forwards?.conversation_id !== undefined) out.push('forwards.conversation_id');
  if (forwards?.conversation_ref_id !== undefined) out.push('forwards.conversation_ref_id');
  if (payload?.conversation_ref_id !== undefined) out.push('conversation_ref_id');
  return out;
}

/** The event kind of a request to the message route: edit_message, a new message carrying a post (a comment), or a new message. */
function messageEventOf(req: HttpRequest): MessageEvent | undefined {
  try {
    const body = JSON.parse(req.body?.toString() ?? '') as { event_type?: unknown; payload?: { message?: { post?: unknown } } };
    if (body.event_type === 'edit_message') return 'edit_message';
    if (body.event_type !== 'new_message') return undefined;
    return typeof body.payload?.message?.post === 'object' && body.payload.message.post !== null ? 'comment' : 'new_message';
  } catch {
    return undefined;
  }
}

/** The places of the endpoints that take a bearer (the account and the four lists), and a later page of each list. */
export const BEARER_PLACES: readonly string[] = [...BEARER_ENDPOINTS.map(bearerPlace), ...LIST_ENDPOINTS.map(laterPagePlace)];

/** Every route of the service: the endpoint catalogue's by name, the chat routes as `chat <route>`. */
export const ROUTES: readonly string[] = [...ENDPOINTS.map((e) => e.name), ...CHAT_ROUTES.map(chatPlace)];

/** The answer classes of every route: each one, chat routes included (chat.http.<route>.wrong-method), is probed with another method. */
export const ANSWER_CLASSES: readonly AnswerClass[] = ['2xx', '4xx', '405'];

/** The kinds of place a statement can speak of (specs/requirements/places.ts names them), each the list of its places. */
export const PLACE_KINDS = {
  'token answers': { what: 'the 200 answer of each grant (§2.3 is the answer of both)', places: GRANTS.map(grantAnswer) },
  'bearer endpoints': { what: 'every endpoint that takes a bearer (the account and the four lists) and a later page of each list, whatever credential the request carries', places: BEARER_PLACES },
  // The rights narrow every list (issue 39: a server that narrows deals only lets contacts, companies and customers through).
  lists: { what: 'each of the four lists (deals, contacts, companies, customers)', places: LIST_ENDPOINTS.map(bearerPlace) },
  'routes and answers': {
    what: 'every route with each class of answer (success, refusal, and the wrong-method refusal where it is probed)',
    places: ROUTES.flatMap((route) => ANSWER_CLASSES.map((a) => routePlace(route, a))),
  },
  // The message route once per event kind it carries (§4.3), so §5.2 reaches an edit and a comment, not only a new message.
  'chat routes': { what: 'every route of the chat interface, the message route with each event kind (new message, edit, comment)', places: [...CHAT_ROUTES.map(chatPlace), ...MESSAGE_EVENTS.map(messageEventPlace)] },
  'chat GET routes': { what: 'the chat routes read with GET (history)', places: [chatPlace('history')] },
  'history pages': { what: 'the first page, a full page further on and the short last page of a history longer than a page, and a page past the first 50 messages (a chat longer than the maximum limit)', places: [...HISTORY_PAGES.map(historyPlace), HISTORY_PAST_MAX] },
  'chat handles': { what: 'every handle a chat request names a chat or message by: the ids in the history and delivery-status paths, reply_to, forwards and their source chat by conversation_id and by conversation_ref_id, conversation_ref_id, a reaction\'s message and chat, typing, an edit, a comment', places: CHAT_HANDLES.map(handlePlace) },
} as const satisfies Record<string, { readonly what: string; readonly places: readonly string[] }>;

const SEGMENT = '\u0000';

/** Each chat route's path as a pattern: its builder's path with every variable segment a wildcard. */
const CHAT_PATTERNS: readonly (readonly [ChatRoute, RegExp])[] = CHAT_ROUTES.map((route) => {
  const path = (chatPaths[route] as (...segments: string[]) => string)(SEGMENT, SEGMENT);
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').split(encodeURIComponent(SEGMENT)).join('[^/]+');
  return [route, new RegExp(`^${escaped}$`)] as const;
});

function chatRouteOf(path: string): ChatRoute | undefined {
  if (!path.startsWith(CHAT_BASE)) return undefined;
  return CHAT_PATTERNS.find(([, pattern]) => pattern.test(path))?.[0];
}

function grantOf(req: HttpRequest): string | undefined {
  const body = req.body?.toString() ?? '';
  try {
    const parsed = JSON.parse(body) as { grant_type?: unknown };
    return typeof parsed.grant_type === 'string' ? parsed.grant_type : undefined;
  } catch {
    return new URLSearchParams(body).get('grant_type') ?? undefined;
  }
}

function answerClassOf(status: number): AnswerClass | undefined {
  if (status === 405) return '405';
  if (status >= 200 && status < 300) return '2xx';
  return status >= 400 && status < 500 ? '4xx' : undefined;
}

/** The history page an answer is: the first (no offset), a middle one (a full page further on) or the last (a short page further on). */
function historyPageOf(url: URL, res: HttpResponse): HistoryPage | undefined {
  if (res.status !== 200) return undefined;
  const offset = Number(url.searchParams.get('offset') ?? '0');
  if (offset === 0) return 'first';
  const limit = Number(url.searchParams.get('limit') ?? 'NaN');
  let count: number;
  try {
    const messages = (JSON.parse(res.text) as { messages?: unknown }).messages;
    if (!Array.isArray(messages)) return undefined;
    count = messages.length;
  } catch {
    return undefined;
  }
  if (count === 0) return undefined;
  return Number.isInteger(limit) && count >= limit ? 'middle' : 'last';
}

/** The places one exchange reached; none for a request the service does not route (the control API, an unknown path). */
export function placesOf(req: HttpRequest, res: HttpResponse | undefined): string[] {
  const url = new URL(req.url);
  const path = url.pathname;
  const answer = res === undefined ? undefined : answerClassOf(res.status);
  const out: string[] = [];
  const chat = chatRouteOf(path);
  if (chat !== undefined) {
    out.push(chatPlace(chat));
    if (answer !== undefined) out.push(routePlace(chatPlace(chat), answer));
    if (chat === 'message') {
      const kind = messageEventOf(req);
      if (kind) out.push(messageEventPlace(kind));
    }
    if (chat === 'history' && res) {
      const page = historyPageOf(url, res);
      if (page) out.push(historyPlace(page));
      if (page && page !== 'first' && Number(url.searchParams.get('offset')) >= 50) out.push(HISTORY_PAST_MAX);
    }
    out.push(...handlesOf(chat, req).map(handlePlace));
    return out;
  }
  // An account's own address may carry a path ({base_url} is an address, not an origin: the emulator's `/_accounts/<sub>`).
  const endpoint = ENDPOINTS.find((e) => path === e.path || path.endsWith(e.path));
  if (!endpoint) return out;
  if (answer !== undefined) out.push(routePlace(endpoint.name, answer));
  if (endpoint.name === 'token' && res?.status === 200) {
    const grant = GRANTS.find((g) => g === grantOf(req));
    if (grant) out.push(grantAnswer(grant));
  }
  if (BEARER_ENDPOINTS.includes(endpoint) && req.method === endpoint.method) {
    out.push(bearerPlace(endpoint));
    if (LIST_ENDPOINTS.includes(endpoint) && Number(url.searchParams.get('page') ?? '1') >= 2) out.push(laterPagePlace(endpoint));
  }
  return out;
}
