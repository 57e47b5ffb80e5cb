/**
 * §2.8 shared_post: `url`, the link to the post, is left unmarked beside optional siblings (unmarked-member): a shared
 * post with it is accepted; without it (or with a url of another type, wrong-type) 400 passes and an acceptance is
 * non_strict (C15 of the review).
 */
import { chatSweepRule, defineSpec, jsonContentType, newMessageBody, refusalPreferred, sampleMessage, status } from './kit.js';

interface Broken { readonly what: string; readonly url: unknown }

export default defineSpec({
  section: '2.8',
  title: 'shared_post object: url required',
  level: 'must',
  rules: [
    chatSweepRule<Broken>(
      { id: 'chat.shared-post.url-required', requires: ['write'],
        title: 'A shared_post with a url is accepted; without url, or with a url that is not a string, it is refused with 400 (accepted: non_strict)',
        reading: '§2.8: url "Link to the post" is the one field besides type not marked optional; its type is string. unmarked-member and wrong-type: refused with 400 passes, accepted is non_strict; the shared post with its url refused fails.',
        covers: ['2.8/url', '2.7/shared_post'] },
      {
        connect: true,
        named: [
          { what: 'given', url: 'https://social.example/post/3' }, { what: 'missing', url: undefined }, { what: 'a number', url: 42 }, { what: 'null', url: null },
          { what: 'an object', url: { href: 'https://social.example/post/3' } }, { what: 'an array', url: ['https://social.example/post/3'] },
        ],
        send: (s, c) => s.postEvent(newMessageBody(s.payload(s.conversationId(), s.client(), {
          message: { ...sampleMessage('text', 'shared'), shared_post: { type: 'post', ...(c.url !== undefined && { url: c.url }) } },
        }))),
        expect: (c) => (typeof c.url === 'string' ? [status(200)] : [refusalPreferred('status 400'), jsonContentType]),
        label: (c) => `url ${c.what}`,
      },
    ),
  ],
});
