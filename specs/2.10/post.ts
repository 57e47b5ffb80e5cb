/**
 * §2.10 message.post object (comments).
 */
import { defineGroup } from '../kit.js';
import { commentMessage } from './support.js';
import { messageEvent, requiredRule, optionalRule, P } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'message.post object (comments)',
  rules: [
    // §2.10 post (comments)
    requiredRule(
      { id: 'chat.post.required', title: 'A comment whose post lacks id or url, or has either of another type, is refused with 400',
        covers: ['2.10/id', '2.10/url', '2.7/post', '4.3/Send a comment'] },
      (s) => messageEvent(s, { message: commentMessage() }),
      [{ path: P('payload', 'message', 'post', 'id'), type: 'string' }, { path: P('payload', 'message', 'post', 'url'), type: 'string' }],
    ),
    optionalRule(
      { id: 'chat.post.optional', title: 'preview_url, preview_permalink, username and caption of a commented post may each be omitted',
        covers: ['2.10/preview_url', '2.10/preview_permalink', '2.10/username', '2.10/caption'] },
      (s) => messageEvent(s, { message: commentMessage() }),
      ['preview_url', 'preview_permalink', 'username', 'caption'].map((k) => ['payload', 'message', 'post', k]),
    ),
  ],
});
