/**
 * The body of `POST /{scope_id}` validated (§4.3 payload table, §2.5–§2.11): the event, its payload and what it quotes.
 */
import { randomUUID } from 'node:crypto';
import type { ChannelRecord, Connection } from '../state.js';
import { embedded, isObj, MAX_FORWARDS, message, participant, source, Validator, type EmbeddedIn, type Obj } from '../validate.js';
import { objectOf } from '../route-kit.js';

export interface MessageEvent {
  readonly event: 'new_message' | 'edit_message';
  readonly p: Obj;
  readonly conversationId: string;
  readonly msgid?: string;
  readonly id?: string;
  readonly timestamp: number;
  readonly msecTimestamp: number;
  readonly silent: boolean;
  readonly externalId?: string;
  readonly sender?: ReturnType<typeof participant>;
  readonly receiver?: ReturnType<typeof participant>;
  readonly message: NonNullable<ReturnType<typeof message>>;
  readonly replyTo?: EmbeddedIn;
  readonly forwards: readonly EmbeddedIn[];
  /** forwards.conversation_ref_id: the chat-interface id of the chat the forwarded messages come from. */
  readonly forwardsRefId?: string;
  /** forwards.conversation_id: the integration-side id of the chat the forwarded messages come from (any external chat). */
  readonly forwardsConversationId?: string;
}

export function validateMessageEvent(c: Validator, raw: unknown, conn: Connection | undefined, channel: ChannelRecord | undefined): MessageEvent {
  const body = objectOf(c, raw);
  if (!Object.hasOwn(body, 'event_type') && c.faults.isOn('chat-crash-without-event-type')) throw new Error('simulated crash: the event kind is read from a missing event_type');
  const anyKind = c.faults.isOn('chat-event-type-unknown-as-new') && typeof body.event_type === 'string' && body.event_type !== 'edit_message';
  const event = anyKind ? 'new_message' : c.oneOf(body, 'event_type', '', ['new_message', 'edit_message'] as const, { required: true });
  const p = c.obj(body, 'payload', '', { required: true }) ?? {};
  const edit = event === 'edit_message';
  const conversationId = c.str(p, 'conversation_id', 'payload', { required: true, nonEmpty: true }) ?? '';
  c.str(p, 'conversation_ref_id', 'payload');
  const timestamp = c.int(p, 'timestamp', 'payload', { required: !edit, min: 0 }) ?? 0;
  const msecTimestamp = c.int(p, 'msec_timestamp', 'payload', { required: !edit, min: 0 }) ?? timestamp * 1000;
  if (!Object.hasOwn(p, 'silent') && !edit && c.faults.isOn('chat-silent-required')) c.add('payload.silent', 'is required');
  if (!Object.hasOwn(p, 'silent') && !edit && c.faults.isOn('chat-crash-without-silent')) throw new Error('simulated crash: the missing silent flag is read');
  const silent = c.variations.isOn('chat-silent-truthy') ? Boolean(p.silent) : c.bool(p, 'silent', 'payload') ?? false;
  const msgid = c.str(p, 'msgid', 'payload', { required: !edit, nonEmpty: true });
  const id = edit ? c.str(p, 'id', 'payload') : undefined;
  if (edit && p.msec_timestamp === undefined && c.faults.isOn('chat-crash-on-edit-without-timestamps')) throw new Error('simulated crash: the edit time is read from a missing msec_timestamp');
  if (edit && id !== undefined && msgid === undefined && c.faults.isOn('chat-crash-on-edit-by-id-only')) throw new Error('simulated crash: the edited message is looked up by an undefined msgid');
  if (edit && id === undefined && msgid === undefined) c.add('payload.msgid', 'or payload.id is required to edit');
  const msg = message(c, p, 'payload', { edit });
  const base = { event: event ?? 'new_message', p, conversationId, timestamp, msecTimestamp, silent, ...(msgid !== undefined && { msgid }), ...(id !== undefined && { id }), forwards: [] } as const;
  if (edit) {
    if (msg?.postId !== undefined && !c.faults.isOn('chat-comment-edit-accepted')) c.add('payload.message.post', 'comments cannot be edited');
    return { ...base, message: msg ?? { type: 'text', text: '' } };
  }
  const externalId = source(c, p, 'payload');
  const sender = participant(c, p, 'sender', 'payload', { required: true });
  const receiver = c.faults.isOn('chat-receiver-unvalidated') && isObj(p.receiver)
    ? { id: String(p.receiver.id ?? randomUUID()), name: String(p.receiver.name ?? '') }
    : participant(c, p, 'receiver', 'payload', { required: false });
  // §4.3 message kinds: with a receiver the message is outgoing, from an account user or from the bot.
  if (receiver && sender && conn && channel) {
    const ref = sender.refId;
    const isBot = ref === channel.botId;
    if (ref === undefined) c.add('payload.sender.ref_id', 'is required for an outgoing message (an account user id or the bot id)');
    else if (!isBot && !conn.account.userIds.includes(ref)) c.add('payload.sender.ref_id', 'is neither an account user id nor the bot id');
    if (isBot && msg?.postId !== undefined && !c.variations.isOn('chat-comment-bot-accepted')) c.add('payload.sender.ref_id', 'the bot cannot reply to a comment');
  }
  let replyTo: MessageEvent['replyTo'];
  const rt = c.obj(p, 'reply_to', 'payload');
  if (rt && !(c.faults.isOn('chat-reply-to-message-optional') && !isObj(rt.message))) {
    if (!Object.hasOwn(rt, 'message')) c.add('payload.reply_to.message', 'is required');
    else replyTo = embedded(c, rt.message, 'payload.reply_to.message');
  }
  const forwards: EmbeddedIn[] = [];
  let forwardsRefId: string | undefined;
  let forwardsConversationId: string | undefined;
  const fw = c.obj(p, 'forwards', 'payload');
  if (fw && !(c.faults.isOn('chat-forwards-messages-optional') && !Array.isArray(fw.messages))) {
    const list = fw.messages;
    if (Array.isArray(list) && list.length === 0 && c.faults.isOn('chat-crash-on-empty-forwards')) throw new Error('simulated crash: the first forwarded message is read from an empty array');
    if (fw.conversation_id === undefined && c.faults.isOn('chat-crash-on-forwards-without-conversation-id')) throw new Error('simulated crash: the forwards\' conversation_id is read');
    if (fw.conversation_ref_id === undefined && c.faults.isOn('chat-crash-on-forwards-without-ref-id')) throw new Error('simulated crash: the forwards\' source chat is looked up by an undefined id');
    if (!Array.isArray(list)) c.add('payload.forwards.messages', 'must be an array');
    else {
      if (list.length > MAX_FORWARDS + (c.faults.isOn('chat-forwards-max-2') ? 1 : 0) && !c.faults.isOn('chat-forwards-unlimited')) c.add('payload.forwards.messages', `must hold at most ${MAX_FORWARDS} message`);
      // The unchecked-forwards fault validates forwarded messages with a validator whose errors are thrown away.
      const fc = c.faults.isOn('chat-forwards-embedded-unchecked') ? new Validator(c.faults) : c;
      list.forEach((e, i) => { const r = embedded(fc, e, `payload.forwards.messages.${i}`); if (r) forwards.push(r); });
    }
    forwardsRefId = c.str(fw, 'conversation_ref_id', 'payload.forwards');
    forwardsConversationId = c.str(fw, 'conversation_id', 'payload.forwards');
  }
  return {
    ...base, ...(externalId !== undefined && { externalId }), sender, receiver, message: msg ?? { type: 'text', text: '' }, ...(replyTo && { replyTo }), forwards,
    ...(forwardsRefId !== undefined && { forwardsRefId }), ...(forwardsConversationId !== undefined && { forwardsConversationId }),
  };
}

/** The fields §4.3 says are ignored on edit; the `chat-edit-ignored-fields-refused` variation refuses an edit carrying one. */
const IGNORED_ON_EDIT = ['source', 'sender', 'receiver', 'reply_to', 'forwards'] as const;

export function ignoredOnEditRefused(c: Validator, v: MessageEvent): MessageEvent {
  if (v.event === 'edit_message' && c.variations.isOn('chat-edit-ignored-fields-refused')) {
    for (const k of IGNORED_ON_EDIT) if (Object.hasOwn(v.p, k)) c.add(`payload.${k}`, 'is not taken on edit');
  }
  return v;
}
