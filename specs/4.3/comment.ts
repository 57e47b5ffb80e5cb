/**
 * §4.3 Chat interface: Send a comment.
 *
 * §4.3 "Send a comment": a comment is a new_message only (never edited), its allowed kinds are the client's comment
 * and an account user's reply (not the bot's), a reply joins the post's one conversation, and what the fields a
 * comment's message goes without (callback_data, delivery_status, shared_post) get is recorded.
 */
import {
  chatSweepRule, conversationsAre, conversationsOf, type ConversationView, defineGroup, eachStep, editMessageBody, equals, exchangeRule, type HttpResponse, jsonContentTypeIfRefused, messageTruth, type MessageTruth, newMessageAnswer, postConversationHolds, refusalPreferred, scenarioRule, status, statusObserved, step, valueField,
} from '../kit.js';
import { COMMENT, type Commented, commentOn, commented, type ClientMessage, clientMessage, type PostComment, postComment, replyComment } from './support.js';

export default defineGroup({
  heading: 'Send a comment',
  defaults: { requires: ['control', 'write'] },
  rules: [
    scenarioRule<ClientMessage>(
      { id: 'chat.comment.conversations', needs: ['ground-truth'], title: 'Comments go to the same chat in one conversation per post, apart from the private messages',
        reading: '§4.3 "Send a comment"; read through the control API (GET /_control/chat/conversations).', covers: ['4.3/Send a comment', '2.7/post', '2.10/id', '2.10/url'] },
      {
        setup: clientMessage,
        steps: [
          eachStep<ClientMessage, PostComment>({
            items: (_t, c) => ['p1', 'p1', 'p2'].map((post) => postComment(c, post)),
            label: (x) => `comment on ${x.post}`,
            observe: (_t, c, x) => c.s.sendMessage(x.payload),
            expect: (x) => [status(200), newMessageAnswer({ msgid: x.payload.msgid, conversationId: x.payload.conversation_id, outgoing: false })],
          }),
          step<ClientMessage, readonly ConversationView[]>('', (_t, c) => conversationsOf(c.s, c.conv), (t) => [
            conversationsAre({ private: 1, [`post:p1-${t.runId}`]: 2, [`post:p2-${t.runId}`]: 1 }),
          ]),
        ],
      },
    ),
    exchangeRule<HttpResponse, Commented>(
      { id: 'chat.comment.edit-refused', requires: ['write'],
        title: 'An edit_message of a comment (message.post present) is refused with 400',
        reading: '§4.3 "Send a comment": event_type is "only new_message". Refused with 400 passes; accepted, or refused with another 4xx, is non_strict (C49): whether the comment then changes is judged by chat.comment.unchanged-after-edit.',
        covers: [COMMENT, '4.3/Send, edit or import a message/event_type'] },
      {
        setup: commented,
        send: (_t, c) => c.s.postEvent(editMessageBody({ conversation_id: c.conv, msgid: c.msgid, message: commentOn(c.postId, 'an edited comment') })),
        expect: [refusalPreferred('edit refused'), jsonContentTypeIfRefused],
      },
    ),
    scenarioRule<Commented>(
      { id: 'chat.comment.unchanged-after-edit', title: 'A comment an edit_message tried to change keeps its text',
        reading: '§4.3 "Send a comment": event_type is "only new_message", so an edit cannot change a comment, whatever it answers. Read through the control API (GET /_control/chat/messages).',
        covers: [COMMENT] },
      {
        setup: commented,
        steps: [
          step('edit of the comment', (_t, c) => c.s.postEvent(editMessageBody({ conversation_id: c.conv, msgid: c.msgid, message: commentOn(c.postId, 'an edited comment') })), []),
          step<Commented, MessageTruth>('the comment', (_t, c) => messageTruth(c.s, c.conv, c.msgid), [valueField('text', equals('a client comment'), 'comment unchanged')]),
        ],
      },
    ),
    exchangeRule<HttpResponse, Commented>(
      { id: 'chat.comment.bot-refused', level: 'should', requires: ['write'],
        title: 'A comment sent as the integration bot (sender.ref_id = bot id, with a receiver) is refused with 400',
        reading: '§4.3 "Send a comment": the allowed kinds are the client\'s comment and an account user\'s reply; the bot\'s is not one of them. Refused with 400 passes; accepted, or refused with another 4xx, is non_strict (C50). Needs BOT_ID.',
        covers: [COMMENT] },
      {
        setup: commented,
        send: (_t, c) => c.s.sendMessage(replyComment(c, c.s.bot('Bot'))),
        expect: [refusalPreferred('bot comment refused'), jsonContentTypeIfRefused],
      },
    ),
    scenarioRule<Commented>(
      { id: 'chat.comment.manager-reply', title: 'An account user\'s reply comment on a post is accepted and joins the post\'s one conversation, beside the client\'s comment',
        reading: '§4.3 "Send a comment": an outgoing reply from an account user (sender.ref_id = user id, receiver = client) is allowed; one conversation per commented post. Read through the control API (GET /_control/chat/conversations). Needs MANAGER_USER_ID.',
        covers: [COMMENT, '2.10/id'] },
      {
        setup: commented,
        steps: [
          step('manager reply', (_t, c) => c.s.sendMessage(replyComment(c, c.s.manager())), [status(200)]),
          step<Commented, readonly ConversationView[]>('conversations', (_t, c) => conversationsOf(c.s, c.conv), (_t, c) => [postConversationHolds(c.postId, 2)]),
        ],
      },
    ),
    chatSweepRule<'callback_data' | 'delivery_status' | 'shared_post'>(
      { id: 'chat.comment.excluded-fields', level: 'info', requires: ['write'],
        title: 'What a comment carrying callback_data, delivery_status or shared_post (fields a comment goes without) gets',
        reading: '§4.3: a comment "uses the fields of 2.7 without callback_data, delivery_status and shared_post"; whether one sent anyway is refused or ignored is not stated. Reported, not judged.',
        covers: [COMMENT] },
      {
        connect: true,
        named: ['callback_data', 'delivery_status', 'shared_post'],
        send: (s, k) => {
          const extra = { callback_data: { callback_data: 'button-1' }, delivery_status: { delivery_status: { status_code: 1 } }, shared_post: { shared_post: { url: 'https://social.example/post/9', type: 'post' } } }[k];
          return s.sendMessage(s.payload(s.conversationId(), s.client(), { message: commentOn(`post-${s.msgid()}`, 'a comment with an excluded field', extra) }));
        },
        expect: (k) => [statusObserved('answer', { accepted: 'accepted (the field ignored or kept)', refused: 'refused' })],
        label: (k) => k,
      },
    ),
  ],
});
