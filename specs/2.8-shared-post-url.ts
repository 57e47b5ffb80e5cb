/**
 * §2.8 shared_post: `url`, the link to the post, is not marked optional, so a shared post without it (or with a url
 * of another type) is refused with 400.
 */
import { chatSweepRule, defineSpec, jsonContentType, newMessageBody, sampleMessage, status } from './kit.js';

interface Broken { readonly what: string; readonly url: unknown }

export default defineSpec({
  section: '2.8',
  title: 'shared_post object: url required',
  level: 'must',
  rules: [
    chatSweepRule<Broken>(
      { id: 'chat.shared-post.url-required', requires: ['write'],
        title: 'A shared_post without url, or with a url that is not a string, is refused with 400',
        reading: '§2.8: url "Link to the post" is the one field besides type not marked optional; its type is string.',
        covers: ['2.8/url', '2.7/shared_post'] },
      {
        connect: true,
        named: [
          { what: 'missing', url: undefined }, { what: 'a number', url: 42 }, { what: 'null', url: null },
          { what: 'an object', url: { href: 'https://social.example/post/3' } }, { what: 'an array', url: ['https://social.example/post/3'] },
        ],
        send: (s, c) => s.postEvent(newMessageBody(s.payload(s.conversationId(), s.client(), {
          message: { ...sampleMessage('text', 'shared'), shared_post: { type: 'post', ...(c.url !== undefined && { url: c.url }) } },
        }))),
        expect: [status(400), jsonContentType],
        label: (c) => `url ${c.what}`,
      },
    ),
  ],
});
