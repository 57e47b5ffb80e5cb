/**
 * Requests of the chat interface (§4.3), signed as §5.2 states, and the bodies well-behaved integrations send.
 * A request can be signed over other parts than it is sent with (`sign`) or sent with parts other than signed
 * (`wire`): that is how the signature rules change one part at a time.
 */
import type { HttpRequest } from '../model/http.js';
import type { HookApiVersion } from '../model/target.js';
import { CHAT_CONTENT_TYPE, contentMd5, rfc2822Date, type SignatureAlgorithm, signatureWith } from './chat-signature.js';

export const CHAT_BASE = '/v2/origin/custom';

export const chatPaths = {
  connect: (channelId: string) => `${CHAT_BASE}/${enc(channelId)}/connect`,
  disconnect: (channelId: string) => `${CHAT_BASE}/${enc(channelId)}/disconnect`,
  chats: (scopeId: string) => `${CHAT_BASE}/${enc(scopeId)}/chats`,
  message: (scopeId: string) => `${CHAT_BASE}/${enc(scopeId)}`,
  deliveryStatus: (scopeId: string, msgid: string) => `${CHAT_BASE}/${enc(scopeId)}/${enc(msgid)}/delivery_status`,
  history: (scopeId: string, conversationId: string, query: { offset?: number; limit?: number } = {}) => {
    const q = new URLSearchParams();
    if (query.offset !== undefined) q.set('offset', String(query.offset));
    if (query.limit !== undefined) q.set('limit', String(query.limit));
    const qs = q.toString();
    return `${CHAT_BASE}/${enc(scopeId)}/chats/${enc(conversationId)}/history${qs ? `?${qs}` : ''}`;
  },
  typing: (scopeId: string) => `${CHAT_BASE}/${enc(scopeId)}/typing`,
  react: (scopeId: string) => `${CHAT_BASE}/${enc(scopeId)}/react`,
} as const;

export type ChatPathName = keyof typeof chatPaths;

/** The one method each chat route serves (§4.3). */
export const CHAT_METHODS: Readonly<Record<ChatPathName, 'GET' | 'POST' | 'DELETE'>> = {
  connect: 'POST', disconnect: 'DELETE', chats: 'POST', message: 'POST', deliveryStatus: 'POST', history: 'GET', typing: 'POST', react: 'POST',
};

/** The path variables of each chat route, in the order its `chatPaths` builder takes them, named as §4.3 names them. */
export const CHAT_PATH_VARIABLES: Readonly<Record<ChatPathName, readonly string[]>> = {
  connect: ['channel_id'], disconnect: ['channel_id'], chats: ['scope_id'], message: ['scope_id'],
  deliveryStatus: ['scope_id', 'msgid'], history: ['scope_id', 'conversation_id'], typing: ['scope_id'], react: ['scope_id'],
};

/** A chat route's path template (`/v2/origin/custom/{scope_id}/typing`): its builder's path with each variable as `{name}`. */
export function chatTemplate(route: ChatPathName): string {
  const build = chatPaths[route] as (...segments: string[]) => string;
  return decodeURIComponent(build(...CHAT_PATH_VARIABLES[route].map((v) => `{${v}}`)));
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

/** What the signature is computed over, where it differs from what is sent. */
export interface SignAs {
  readonly method?: string;
  readonly path?: string;
  readonly secret?: string;
  readonly contentType?: string;
  readonly date?: string;
  readonly md5?: string;
  /** Another hash than the stated HMAC-SHA1 (default `hmac-sha1`). */
  readonly algorithm?: SignatureAlgorithm;
}

/** What is sent, where it differs from what was signed. */
export interface OnWire {
  readonly body?: string | Buffer;
  readonly md5?: string;
  readonly contentType?: string;
  readonly date?: string;
  readonly signature?: string;
  readonly headers?: Record<string, string>;
  /** Signed headers left out of the request altogether (lower-case names). */
  readonly omit?: readonly ('content-type' | 'date' | 'content-md5' | 'x-signature')[];
}

export interface ChatCall {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  /** Path with its query string, e.g. from `chatPaths`. */
  readonly path: string;
  /** A JSON value (serialized here) or raw text or bytes sent as is. */
  readonly json?: unknown;
  readonly raw?: string | Buffer;
}

export interface SignContext {
  readonly chatUrl: string;
  readonly secret: string;
  /** The time to put in `Date` (the target's clock when known). */
  readonly now: Date;
  /** Zone of the Date header: minutes east of UTC or 'GMT'. */
  readonly zone?: 'GMT' | number;
  readonly sign?: SignAs;
  readonly wire?: OnWire;
}

export function chatRequest(call: ChatCall, s: SignContext): HttpRequest {
  const body = call.raw ?? (call.json === undefined ? undefined : JSON.stringify(call.json));
  const contentType = CHAT_CONTENT_TYPE;
  const md5 = contentMd5(body);
  const date = rfc2822Date(s.now, s.zone ?? 0);
  const sign = s.sign ?? {};
  const signature = signatureWith(sign.algorithm ?? 'hmac-sha1', sign.secret ?? s.secret, {
    method: sign.method ?? call.method,
    md5: sign.md5 ?? md5,
    contentType: sign.contentType ?? contentType,
    date: sign.date ?? date,
    path: sign.path ?? call.path,
  });
  const w = s.wire ?? {};
  const sent = w.body ?? body;
  const headers: Record<string, string> = {
    'content-type': w.contentType ?? contentType,
    date: w.date ?? date,
    'content-md5': w.md5 ?? md5,
    'x-signature': w.signature ?? signature,
    ...w.headers,
  };
  for (const name of w.omit ?? []) delete headers[name];
  return {
    method: call.method,
    url: `${s.chatUrl}${call.path}`,
    headers,
    ...(sent === undefined ? {} : { body: sent }),
  };
}

// ---- bodies

export interface ParticipantBody {
  id: string;
  name: string;
  ref_id?: string;
  avatar?: string;
  profile?: { phone?: string; email?: string };
  profile_link?: string;
}

export interface MessagePayload {
  timestamp: number;
  msec_timestamp: number;
  conversation_id: string;
  msgid: string;
  sender: ParticipantBody;
  receiver?: ParticipantBody;
  message: Record<string, unknown>;
  silent?: boolean;
  source?: { external_id: unknown };
  reply_to?: { message: Record<string, unknown> };
  forwards?: { messages: Record<string, unknown>[]; conversation_id?: string; conversation_ref_id?: string };
  [k: string]: unknown;
}

/**
 * A connect body for `accountId`, asking for `hookApiVersion`: the version whose hook address the channel's settings
 * hold (CHANNEL_HOOK_API_VERSION for the configured channel; §2.4's default v1 when nothing says otherwise). A service
 * may refuse a version the channel has no address for, so a connect never asks for one the channel was not said to have.
 */
export const connectBody = (accountId: string, extra: Record<string, unknown> = {}, hookApiVersion: HookApiVersion = 'v1') => ({ account_id: accountId, hook_api_version: hookApiVersion, ...extra });

export const createChatBody = (conversationId: string, user: ParticipantBody, extra: Record<string, unknown> = {}) => ({ conversation_id: conversationId, user, ...extra });

export const newMessageBody = (payload: MessagePayload) => ({ event_type: 'new_message', payload });

export const editMessageBody = (payload: Record<string, unknown>) => ({ event_type: 'edit_message', payload });

/** A sample message of each §2.7 type with every field its type requires. */
export function sampleMessage(type: string, text = ''): Record<string, unknown> {
  switch (type) {
    case 'text': return { type, text: text || 'hello' };
    case 'file': case 'video': case 'picture':
      return { type, text, media: `https://files.example/${type}.bin`, file_name: `${type}.bin`, file_size: 1024 };
    case 'voice': case 'audio': return { type, text, media: `https://files.example/${type}.ogg`, media_duration: 3 };
    case 'sticker': return { type, text, media: 'https://files.example/sticker.webp', sticker_id: 'sticker-1' };
    case 'location': return { type, text, location: { lon: 37.6156, lat: 55.7522 } };
    case 'contact': return { type, text, contact: { name: 'Ann', phone: '+10000000000' } };
    default: return { type, text };
  }
}
