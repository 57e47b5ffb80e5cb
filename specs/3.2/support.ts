/**
 * What the rules of §3.2 share: fixtures, case tables and the makers of rule families.
 */
import {
  ChatSession, clientError, ControlError, editMessageBody, type HttpResponse, isSuccess, jsonContentTypeIfRefused, messageTruth, noCommentOf, nothingResolvedFrom, type ParticipantBody, refusalPreferred, type RuleContext, spareChannel, step, stringAt,
} from '../kit.js';
import { STEP_OWNERS, TargetAnswer } from '../kit.js';

/** A conversation of the rule's own on its channel. */
export interface OwnConversation {
  readonly s: ChatSession;
  readonly scope: string;
  readonly conv: string;
  readonly client: ParticipantBody;
  /** Hooks seen while connected, for the step after the disconnect. */
  hooksBefore: number;
}

export async function ownConversation(t: RuleContext): Promise<OwnConversation> {
  const s = await spareChannel(t);
  return { s, scope: await s.scope(), conv: s.conversationId(), client: s.client(), hooksBefore: 0 };
}

/** Two accounts' sessions on the configured channel and a message in A's conversation. */
export interface TwoAccounts {
  readonly a: ChatSession;
  readonly b: ChatSession;
  readonly scopes: readonly [string, string];
  readonly conv: string;
  readonly client: ParticipantBody;
  readonly inA: string;
  /** The chat-interface id of A's message (new_message.msgid; "" when the answer gave none). */
  readonly inAId: string;
  /** The chat-interface id of A's chat (create chat's id; "" when none was answered). */
  readonly chatA: string;
  /** The text of A's message: what must never be resolved into B's quotes and forwards, and what an edit through B must not change. */
  readonly textA: string;
  /** A conversation of B's own (another conversation_id than A's), where B's messages naming A's chat or message go. */
  readonly convB: string;
  /** B's message in the same conversation_id, which A's history must not show. */
  sentInB: string;
}

/**
 * Two scopes (two accounts of one channel, or two channels of one account) and a chat of the first with one message,
 * which the second must never reach. Nothing is written when both answer one scope_id (the rule's first step fails it).
 */
export async function twoScopes(a: ChatSession, b: ChatSession): Promise<TwoAccounts> {
  const scopes = [await a.scope(), await b.scope()] as const;
  const conv = a.conversationId();
  const client = a.client();
  const separate = scopes[0] !== scopes[1];
  const made = separate ? stringAt(await a.createChat(conv, client), ['id']) ?? '' : '';
  const textA = `said in the first scope ${a.msgid()}`;
  const sent = separate ? await a.mustSend(a.payload(conv, client, { message: { type: 'text', text: textA } })) : { msgid: '', id: '' };
  return { a, b, scopes, conv, client, inA: sent.msgid, inAId: sent.id, chatA: made, textA, convB: `${conv}-b`, sentInB: '' };
}

/** What B's message embedding A's message stored of it: nothing (refused), unseen (no control API), or the stored quote. */
interface Embedded {
  readonly res: HttpResponse;
  readonly stored: { readonly text?: string } | 'unseen' | undefined;
}

/** The ways B's message can embed A's message (§4.3 reply_to, forwards with its source chat named either way). */
type EmbedHandle = 'reply_to' | 'forwards' | 'forwards.conversation_id' | 'forwards.conversation_ref_id';

function embedding(f: TwoAccounts, handle: EmbedHandle): Record<string, unknown> {
  const byIds = { ...(f.inAId && { id: f.inAId }), msgid: f.inA };
  switch (handle) {
    case 'reply_to': return { reply_to: { message: byIds } };
    case 'forwards': return { forwards: { messages: [byIds] } };
    // The message by its integration-side msgid only, its source chat named by A's conversation_id or A's chat id:
    // each names A's chat only in A's scope, so under B's scope the msgid names no message (§2.4).
    case 'forwards.conversation_id': return { forwards: { messages: [{ msgid: f.inA }], conversation_id: f.conv } };
    case 'forwards.conversation_ref_id': return { forwards: { messages: [{ msgid: f.inA }], conversation_ref_id: f.chatA || f.conv } };
  }
}

/** B sends, in a conversation of its own, a message embedding A's message; what it stored is read through the control API. */
async function embedFromOtherScope(t: RuleContext, f: TwoAccounts, handle: EmbedHandle): Promise<Embedded> {
  const p = f.b.payload(f.convB, f.client, embedding(f, handle));
  const res = await f.b.sendMessage(p);
  if (!isSuccess(res.status)) return { res, stored: undefined };
  if (!t.target.controlUrl) return { res, stored: 'unseen' };
  const truth = await messageTruth(f.b, f.convB, p.msgid);
  return { res, stored: (handle === 'reply_to' ? truth.reply_to?.message : truth.forwards?.[0]) ?? undefined };
}

/** The comments (messages carrying a post) A's chat holds, through the control API; undefined without one. */
async function commentsOfA(t: RuleContext, f: TwoAccounts): Promise<readonly string[] | undefined> {
  if (!t.target.controlUrl) return undefined;
  const q = `?scope_id=${encodeURIComponent(await f.a.scope())}&conversation_id=${encodeURIComponent(f.conv)}`;
  try {
    const { messages } = await t.control.call<{ messages: { msgid: string; post_id?: string }[] }>('GET', `/chat/messages${q}`);
    return messages.filter((m) => m.post_id !== undefined).map((m) => m.msgid);
  } catch (err) {
    if (err instanceof ControlError && err.status === 404) return [];
    throw err;
  }
}

/**
 * The handles a message sent under B's scope can name A's chat or message by, beyond history, delivery status and
 * reactions (issue 39 item 2): a quote (reply_to) and a forward of A's message by its ids, a forward by A's msgid with
 * its source chat named by A's conversation_id or by A's chat id, a message linked to A's chat by conversation_ref_id,
 * an edit of A's message by msgid and by id, and a comment under A's conversation_id. Each is sent in B's own
 * conversation (the edit and the comment name A's conversation_id): a quote or forward refused with 400 passes, another
 * 4xx or taken with nothing of A's message in it is non_strict, A's text resolved into it fails; the link and the edits
 * must be refused (any 4xx); a comment may be taken, as B's own, but never lands in A's chat. The rule's last step reads
 * A's chat unchanged (its message once, its text as sent). Typing names a conversation and stores nothing a request can
 * read back, so no request can show it crossing (specs/requirements/places.ts).
 */
export function crossScopeSteps(other: string) {
  const embed = (handle: EmbedHandle, what: 'quote' | 'forward', label: string) =>
    step<TwoAccounts, Embedded>(`${other} ${label}`, (t, f) => embedFromOtherScope(t, f, handle), (_t, f) => [
      (o: Embedded) => refusalPreferred(`the first scope's message refused in a ${handle}`)(o.res),
      (o: Embedded) => jsonContentTypeIfRefused(o.res),
      // Without a control API what a taken quote stored is not read: a note (informational), so the rule keeps its verdict.
      (o: Embedded) => nothingResolvedFrom(f.textA, what)(o.stored),
    ]);
  return [
    embed('reply_to', 'quote', 'quotes the first scope\'s message in reply_to by its ids'),
    embed('forwards', 'forward', 'forwards the first scope\'s message by its ids'),
    embed('forwards.conversation_id', 'forward', 'forwards the first scope\'s message by msgid, forwards.conversation_id its conversation'),
    embed('forwards.conversation_ref_id', 'forward', 'forwards the first scope\'s message by msgid, forwards.conversation_ref_id its chat'),
    step<TwoAccounts>(`${other} links a message to the first scope's chat by conversation_ref_id`,
      (_t, f) => f.b.sendMessage(f.b.payload(f.convB, f.client, { conversation_ref_id: f.chatA || f.conv })), [clientError('refused')]),
    // Before B holds a chat under A's conversation_id (the edits make one): the comment names a conversation only A holds.
    step<TwoAccounts, readonly string[] | undefined>(`${other} comments under the first scope's conversation_id`, async (t, f) => {
      await f.b.mustSend(f.b.payload(f.conv, f.client, { message: { type: 'text', text: `commented through ${other}`, post: { id: `post-${f.b.msgid()}`, url: 'https://social.example/p/cross-scope' } } }));
      return commentsOfA(t, f);
    }, [noCommentOf(other)]),
    // B's own chat under A's conversation_id first, so that the edit is refused for the message it names, not for a missing chat.
    step<TwoAccounts>(`${other} edits the first scope's message by msgid`, async (_t, f) => {
      await f.b.createChat(f.conv, f.client);
      return f.b.postEvent(editMessageBody({ conversation_id: f.conv, msgid: f.inA, message: { type: 'text', text: `edited through ${other}` } }));
    }, [clientError('refused')]),
    step<TwoAccounts>(`${other} edits the first scope's message by id`,
      (_t, f) => f.b.postEvent(editMessageBody({ conversation_id: f.conv, id: f.inAId || f.inA, message: { type: 'text', text: `edited through ${other} by id` } })), [clientError('refused')]),
  ];
}

/** Disconnects the channel as a step the rule needs (the lifecycle rule judges the disconnect itself). */
export async function mustDisconnect(s: ChatSession): Promise<void> {
  const off = await s.disconnect();
  if (!isSuccess(off.status)) throw new TargetAnswer(STEP_OWNERS.disconnect, `disconnect answered ${off.status}`);
}

export interface TwoAccountsConversation {
  readonly a: ChatSession;
  readonly b: ChatSession;
  readonly conversationId: string;
}

export interface Disconnected {
  readonly s: ChatSession;
  readonly scopeId: string;
  readonly conv: string;
  /** Hooks of the scope while connected, after one account message. */
  readonly before: number;
}
