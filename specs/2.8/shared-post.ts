/**
 * §2.8 shared_post object.
 *
 * §2.8 shared_post: `url`, the link to the post, is left unmarked beside optional siblings (unmarked-member): a shared
 * post with it is accepted; without it (or with a url of another type, wrong-type) 400 passes and an acceptance is
 * non_strict (C15 of the review).
 *
 * §2.8 shared_post previews: preview_link is temporary, so its image is downloaded into the account; preview_permalink
 * is permanent, kept as it is and not downloaded, and takes priority when both are given. A shared post with either
 * preview, or both, must be accepted; what the account then keeps (control API GET /_control/chat/messages) is shown by
 * no answer of the spec, so it is recorded, not judged (open-point, C16 of the review).
 */
import fc from 'fast-check';
import {
  chatSweepRule, defineGroup, jsonContentType, newMessageBody, observedStatus, onAnswer, previewStoredObserved, refusalPreferred, sampleMessage, type SharedPostSeen, sharePost, sharingClient, type SharingClient, status, sweepRule,
} from '../kit.js';
import { type Broken, type PreviewCase, CASES } from './support.js';
import { accepted, messageEvent } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'shared_post object',
  rules: [
    // §2.8 shared_post
    chatSweepRule<string>(
      { id: 'chat.shared-post.type', title: 'shared_post.type "post" is accepted; any other type is refused with 400 (accepted: non_strict)',
        reading: '§2.8: "only post is supported" says what is supported, not what the request may carry (enumeration, C14 of the review): "post" refused fails; another type refused with 400 passes, accepted is non_strict.', covers: ['2.8/type', '2.8/url'] },
      {
        connect: true,
        named: ['post', 'article', 'video', 'Post', ''],
        cases: () => fc.oneof(fc.constant('post'), fc.string({ maxLength: 10 }).filter((x) => x !== 'post')),
        send: (s, type) => s.postEvent(messageEvent(s, { message: { ...sampleMessage('text', 'shared'), shared_post: { url: 'https://social.example/post/2', type } } })),
        expect: (type) => (type === 'post' ? accepted : [refusalPreferred('status 400'), jsonContentType]),
        label: (type) => `type ${JSON.stringify(type)}`,
      },
    ),
    chatSweepRule<Broken>(
      { id: 'chat.shared-post.url-required', title: 'A shared_post with a url is accepted; without url, or with a url that is not a string, it is refused with 400 (accepted: non_strict)',
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
    sweepRule<PreviewCase, SharedPostSeen, SharingClient>(
      { id: 'chat.shared-post.preview-stored', needs: ['ground-truth'],
        title: 'A shared_post with preview_link, preview_permalink or both is accepted',
        reading: '§2.8: both preview fields are optional and may come together ("takes priority when both preview fields are given"): a shared post with either or both is accepted (status-code). What the account keeps of the image is recorded by chat.shared-post.preview-storage (C16 of the review).',
        covers: ['2.8/preview_link', '2.8/preview_permalink', '2.7/shared_post'] },
      {
        setup: sharingClient,
        named: CASES,
        send: (_t, c, f) => sharePost(f, c),
        expect: [onAnswer(status(200))],
        label: (c) => c.what,
      },
    ),
    sweepRule<PreviewCase, SharedPostSeen, SharingClient>(
      { id: 'chat.shared-post.preview-storage', level: 'info', needs: ['ground-truth'],
        title: 'Whether a shared_post\'s preview_link is stored as a downloaded copy, and preview_permalink kept as it is (winning when both are given)',
        reading: '§2.8: preview_link is temporary and "the image is downloaded into the account"; preview_permalink is permanent, "not downloaded", and "takes priority when both preview fields are given". The stored preview is read through the control API: its source (downloaded or permalink) and url. No answer of the spec shows it: recorded, not judged (open-point, C16 of the review).',
        covers: ['2.8/preview_link', '2.8/preview_permalink'] },
      {
        setup: sharingClient,
        named: CASES,
        send: (_t, c, f) => sharePost(f, c),
        expect: (_t, c) => [onAnswer(observedStatus('shared post')), previewStoredObserved(c)],
        label: (c) => c.what,
      },
    ),
  ],
});
