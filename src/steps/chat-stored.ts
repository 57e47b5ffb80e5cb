/**
 * Steps that send a chat message and read back, through the control API, what the account stored from it: the
 * unsorted lead's contact (§2.5), the shared post's preview (§2.8), the resolved quote (§2.11). Each read waits for
 * the effect within POLICY_EFFECT_WINDOW_MS (docs/verdicts.md): a message is only "accepted for processing".
 */
import { randomUUID } from 'node:crypto';
import type { LeadSeen, PreviewSent, QuoteSeen, SharedPostSeen } from '../checks/chat-stored.js';
import { TargetAnswer } from '../errors.js';
import { STEP_OWNERS } from './owners.js';
import type { RuleContext } from '../model/context.js';
import type { HttpResponse } from '../model/http.js';
import type { ParticipantBody } from '../protocol/chat.js';
import { chatSession, type ChatSession } from './chat.js';
import { conversationWith, messageTruth, type Conversation, type MessageTruth } from './chat-conversation.js';
import { POLICY_EFFECT_WINDOW_MS } from '../model/readings.js';

/** A client with a profile (phone and email unique to the run), about to write the first message of a conversation. */
export interface ProfiledClient {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly profile: { readonly phone: string; readonly email: string };
}

export async function profiledClient(t: RuleContext): Promise<ProfiledClient> {
  const s = await chatSession(t);
  const n = randomUUID().replace(/\D/g, '').padEnd(7, '0').slice(0, 7);
  const profile = { phone: `+7900${n}`, email: `client-${n}@example.com` };
  return { s, conv: s.conversationId(), client: { ...s.client('Profiled Client'), profile }, profile };
}

/** The client's first (non-silent, incoming) message of the conversation. */
export function sendFirstMessage(f: ProfiledClient): Promise<HttpResponse> {
  return f.s.sendMessage(f.s.payload(f.conv, f.client));
}

/** The conversation's unsorted lead (control API), once one shows within the window; undefined when none did. */
export async function unsortedLeadOf(s: ChatSession, conv: string): Promise<LeadSeen | undefined> {
  const q = `?scope_id=${encodeURIComponent(await s.scope())}&conversation_id=${encodeURIComponent(conv)}`;
  const read = async () => (await s.t.control.call<{ leads: LeadSeen[] }>('GET', `/chat/unsorted${q}`)).leads[0];
  return (await s.t.eventually(read, { within: POLICY_EFFECT_WINDOW_MS, until: (lead) => lead !== undefined })).value;
}

/** A conversation of the client's own in which shared posts are sent. */
export interface SharingClient {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
}

export async function sharingClient(t: RuleContext): Promise<SharingClient> {
  const s = await chatSession(t);
  await s.scope();
  return { s, conv: s.conversationId(), client: s.client('Sharing Client') };
}

/** Sends a shared post with these preview fields and reads back the shared post the account stored with the message. */
export async function sharePost(f: SharingClient, preview: PreviewSent): Promise<SharedPostSeen> {
  const payload = f.s.payload(f.conv, f.client, {
    message: { type: 'text', text: 'shared a post', shared_post: { url: `https://social.example/p/${f.s.msgid()}`, type: 'post', site_name: 'Social', ...preview } },
  });
  const res = await f.s.sendMessage(payload);
  const post = res.status === 200 ? (await messageTruth(f.s, f.conv, payload.msgid)).shared_post : undefined;
  return { res, post };
}

/** A conversation whose client's first message is the one quoted, and that message as the account stores it. */
export interface QuotedConversation {
  readonly c: Conversation;
  readonly quoted: MessageTruth;
}

export async function quotedConversation(t: RuleContext): Promise<QuotedConversation> {
  const c = await conversationWith(t, 1);
  return { c, quoted: await messageTruth(c.s, c.conv, c.sent[0]!.msgid) };
}

export interface QuoteWay {
  /** A reply (`reply_to.message`) or a forward (`forwards.messages[0]`). */
  readonly where: 'reply_to' | 'forwards';
  /** The quoted message named only by its integration-side `msgid` or only by its chat-interface `id`. */
  readonly by: 'msgid' | 'id';
}

/** The client quotes the conversation's first message, named by one id only, and the quote the account stored is read back. */
export async function quoteAndRead(f: QuotedConversation, way: QuoteWay): Promise<QuoteSeen> {
  const { s, conv, client } = f.c;
  const first = f.c.sent[0]!;
  if (way.by === 'id' && first.id === '') throw new TargetAnswer(STEP_OWNERS.sendMessage, 'the quoted message\'s answer named no new_message.msgid (its chat-interface id)');
  const ref = way.by === 'msgid' ? { msgid: first.msgid } : { id: first.id };
  const quoting = way.where === 'reply_to' ? { reply_to: { message: ref } } : { forwards: { messages: [ref] } };
  const payload = s.payload(conv, client, { message: { type: 'text', text: `quoting by ${way.by}` }, ...quoting });
  const res = await s.sendMessage(payload);
  if (res.status !== 200) return { res, quote: undefined };
  const stored = await messageTruth(s, conv, payload.msgid);
  return { res, quote: way.where === 'reply_to' ? stored.reply_to?.message : stored.forwards?.[0] };
}
