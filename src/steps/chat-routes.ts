/**
 * The chat routes of §4.3 as a catalogue: for each one, a request that would be accepted as it stands (so that a
 * refusal can only come from what a rule changed), and the ways a rule can spoil the signature of any of them (§5.2).
 * Disconnect runs on a channel of its own: a target that wrongly accepted a spoiled disconnect would otherwise cut the
 * configured channel from under the other rules.
 */
import { CHAT_CONTENT_TYPE, EMPTY_MD5, contentMd5, rfc2822Date } from '../protocol/chat-signature.js';
import { chatPaths, createChatBody, newMessageBody, type ChatCall, type ParticipantBody } from '../protocol/chat.js';
import type { RuleContext } from '../model/context.js';
import type { Capability } from '../model/target.js';
import { tamperBody } from '../../generators/chat-requests.js';
import { SkipRule, TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import { chatSession, configuredChannel, uniqueId, type ChatSession, type SendOptions } from './chat.js';
import { spareChannel } from './live-chat.js';
import { untilShown } from './chat-written.js';
import { isSuccess } from '../model/http.js';

export type ChatRouteName = 'connect' | 'disconnect' | 'chats' | 'message' | 'status' | 'history' | 'typing' | 'react';

export const CHAT_ROUTES: readonly ChatRouteName[] = ['connect', 'disconnect', 'chats', 'message', 'status', 'history', 'typing', 'react'];

/** What the route needs on the target: a conversation holding one message of a client. */
export interface RouteFixture {
  readonly session: ChatSession;
  readonly scopeId: string;
  readonly conversationId: string;
  readonly client: ParticipantBody;
  readonly msgid: string;
  /** The chat-interface id of that message (new_message.msgid), which the delivery-status path names (C25); else msgid. */
  readonly id: string;
  /** Whether the message's answer gave that id: without it `id` is the integration-side msgid (chat.message.answer judges the answer). */
  readonly idAnswered: boolean;
}

/** Capabilities a route's fixture needs beyond the configured channel. */
export function routeRequires(route: ChatRouteName): Capability[] {
  return route === 'connect' ? [] : ['write'];
}

export async function routeFixture(t: RuleContext, route: ChatRouteName): Promise<RouteFixture> {
  const session = route === 'disconnect' ? await spareChannel(t) : await chatSession(t);
  const scopeId = await session.scope();
  const conversationId = session.conversationId();
  const client = session.client();
  const sent = route === 'connect' || route === 'disconnect' ? { msgid: '', id: '' } : await session.mustSend(session.payload(conversationId, client));
  // The history route reads one page right after: the message "appears after processing" (§4.3), so it is waited for
  // first, as every one-page read after a write is (R3-C5).
  if (route === 'history') await untilShown(session, conversationId);
  return { session, scopeId, conversationId, client, msgid: sent.msgid, id: sent.id || sent.msgid, idAnswered: sent.id !== '' };
}

/** Another channel's real secret, or why the run has none (the case that signs with it is then not sent). */
export type OtherSecret = string | { readonly missing: string };

/**
 * The real secret of another channel than the one the route's request names (§5.2: the key is the secret of the channel
 * in the path). Disconnect runs on a channel of its own, so the configured channel's secret is the other one there; the
 * other routes run on the configured channel and sign with a second channel's (other-channel-secret: the control API's,
 * else CHANNEL_SECRET_2), which is only read, so their rules need not wait for one another.
 */
export async function otherChannelSecret(t: RuleContext, route: ChatRouteName, f: RouteFixture): Promise<OtherSecret> {
  let secret: string;
  try {
    secret = route === 'disconnect' ? configuredChannel(t).secret : await t.need('other-channel-secret');
  } catch (err) {
    if (err instanceof SkipRule) return { missing: err.message };
    throw err;
  }
  return secret === f.session.channel.secret ? { missing: 'the second channel\'s secret is the secret of the channel addressed' } : secret;
}

/** The valid request of the route, built from the fixture. */
export function routeCall(route: ChatRouteName, f: RouteFixture): ChatCall {
  const s = f.session;
  const ch = s.channel.channelId;
  switch (route) {
    case 'connect': return { method: 'POST', path: chatPaths.connect(ch), json: s.connectBody({ title: `Signed channel ${s.t.runId}` }) };
    case 'disconnect': return { method: 'DELETE', path: chatPaths.disconnect(ch), json: { account_id: s.channel.accountId } };
    case 'chats': return { method: 'POST', path: chatPaths.chats(f.scopeId), json: createChatBody(f.conversationId, f.client) };
    case 'message': return { method: 'POST', path: chatPaths.message(f.scopeId), json: newMessageBody(s.payload(f.conversationId, f.client)) };
    case 'status': return { method: 'POST', path: chatPaths.deliveryStatus(f.scopeId, f.id), json: { status_code: 1 } };
    case 'history': return { method: 'GET', path: chatPaths.history(f.scopeId, f.conversationId, { offset: 0, limit: 10 }) };
    case 'typing': return { method: 'POST', path: chatPaths.typing(f.scopeId), json: { conversation_id: f.conversationId, sender: { id: f.client.id } } };
    // Both ids of the message, each in the member the spec names for its side (§4.3 react: id account-side, msgid
    // integration-side), so a route that treats either one differently (a signature skipped for `id`) is reached.
    case 'react': return { method: 'POST', path: chatPaths.react(f.scopeId), json: { conversation_id: f.conversationId, ...(f.id !== f.msgid && { id: f.id }), msgid: f.msgid, user: { id: f.client.id }, type: 'react', emoji: '👍' } };
  }
}

/** Another real path of the same channel or scope, for a signature made for the wrong endpoint. */
function siblingPath(route: ChatRouteName, f: RouteFixture): string {
  const ch = f.session.channel.channelId;
  switch (route) {
    case 'connect': return chatPaths.disconnect(ch);
    case 'disconnect': return chatPaths.connect(ch);
    case 'typing': return chatPaths.react(f.scopeId);
    default: return chatPaths.typing(f.scopeId);
  }
}

/**
 * One way of spoiling a request's signature. Each leaves everything else as a valid request has it, so only the
 * signature check can refuse it.
 */
export type SignatureSpoil =
  | 'wrong-secret' | 'body-byte' | 'other-path' | 'other-method' | 'md5-of-other-body'
  | 'other-content-type' | 'other-date' | 'no-x-signature' | 'no-content-md5' | 'no-date' | 'hmac-sha256' | 'hmac-md5' | 'plain-sha1';

export const SIGNATURE_SPOILS: readonly SignatureSpoil[] = [
  'wrong-secret', 'body-byte', 'other-path', 'other-method', 'md5-of-other-body', 'other-content-type', 'other-date', 'no-x-signature', 'no-content-md5', 'no-date', 'hmac-sha256', 'hmac-md5', 'plain-sha1',
];

export const SPOIL_WHAT: Record<SignatureSpoil, string> = {
  'wrong-secret': 'signed with a wrong secret',
  'body-byte': 'one body byte changed after signing',
  'other-path': 'signed for another endpoint\'s path',
  'other-method': 'signed with another method than sent',
  'md5-of-other-body': 'Content-MD5 (signed) of another body than sent; for a GET, of a non-empty body',
  'other-content-type': 'sent with another Content-Type than signed (application/json; charset=utf-8 for application/json)',
  'other-date': 'sent with another Date than signed (a minute later, within the accepted window)',
  'no-x-signature': 'no X-Signature header',
  'no-content-md5': 'no Content-MD5 header',
  'no-date': 'no Date header',
  'hmac-sha256': 'HMAC-SHA256 instead of HMAC-SHA1',
  'hmac-md5': 'HMAC-MD5 instead of HMAC-SHA1',
  'plain-sha1': 'plain SHA-1 of the signing string (no key)',
};

/** The spoils that apply to a request: a GET has no body byte to change. */
export function spoilsFor(call: ChatCall): SignatureSpoil[] {
  return SIGNATURE_SPOILS.filter((x) => x !== 'body-byte' || call.json !== undefined || call.raw !== undefined);
}

export function spoilOptions(route: ChatRouteName, f: RouteFixture, call: ChatCall, spoil: SignatureSpoil): SendOptions {
  const body = typeof call.raw === 'string' ? call.raw : call.raw !== undefined ? call.raw.toString('utf8') : call.json === undefined ? undefined : JSON.stringify(call.json);
  const secret = f.session.channel.secret;
  switch (spoil) {
    case 'wrong-secret': return { secret: `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}` };
    case 'body-byte': return { wire: { body: tamperBody(body ?? '', 0.5, 'q') } };
    case 'other-path': return { sign: { path: siblingPath(route, f) } };
    case 'other-method': return { sign: { method: call.method === 'GET' ? 'POST' : 'GET' } };
    case 'md5-of-other-body': {
      const md5 = body === undefined ? contentMd5('{}') : contentMd5(`${body} `);
      return md5 === EMPTY_MD5 ? {} : { sign: { md5 }, wire: { md5 } };
    }
    // Both keep the request acceptable (a JSON media type, a Date within the window): only the signing string differs.
    case 'other-content-type': return { wire: { contentType: `${CHAT_CONTENT_TYPE}; charset=utf-8` } };
    case 'other-date': return { wire: { date: rfc2822Date(new Date(f.session.now().getTime() + 60_000)) } };
    case 'no-x-signature': return { wire: { omit: ['x-signature'] } };
    case 'no-content-md5': return { wire: { omit: ['content-md5'] } };
    case 'no-date': return { wire: { omit: ['date'] } };
    case 'hmac-sha256': return { sign: { algorithm: 'hmac-sha256' } };
    case 'hmac-md5': return { sign: { algorithm: 'hmac-md5' } };
    case 'plain-sha1': return { sign: { algorithm: 'sha1' } };
  }
}

/** The routes under a scope_id (every route but connect and disconnect, which name the channel). */
export const SCOPE_ROUTES: readonly ChatRouteName[] = ['chats', 'message', 'status', 'history', 'typing', 'react'];

/**
 * A conversation with one message on a channel of its own, then that channel disconnected: what every scope route is
 * called with afterwards (the old scope_id, a message that existed).
 */
export async function disconnectedFixture(t: RuleContext): Promise<RouteFixture> {
  const own = await spareChannel(t);
  const scopeId = await own.scope();
  const conversationId = own.conversationId();
  const client = own.client();
  const sent = await own.mustSend(own.payload(conversationId, client));
  const off = await own.disconnect();
  if (!isSuccess(off.status)) throw new TargetAnswer(STEP_OWNERS.disconnect, `disconnecting the channel answered ${off.status}`);
  return { session: own, scopeId, conversationId, client, msgid: sent.msgid, id: sent.id || sent.msgid, idAnswered: sent.id !== '' };
}

/** A scope_id of the configured channel for an account that was never connected (ids carry the run id). */
export async function unknownScopeFixture(t: RuleContext): Promise<RouteFixture> {
  const f = await routeFixture(t, 'message');
  return { ...f, scopeId: `${f.session.channel.channelId}_${uniqueId(t, 'no-account')}` };
}
