/**
 * §2.8 shared_post previews: preview_link is temporary, so its image is downloaded into the account; preview_permalink
 * is permanent, kept as it is and not downloaded, and takes priority when both are given. A shared post with either
 * preview, or both, must be accepted; what the account then keeps (control API GET /_control/chat/messages) is shown by
 * no answer of the spec, so it is recorded, not judged (open-point, C16 of the review).
 */
import { defineSpec, observedStatus, onAnswer, type PreviewSent, previewStoredObserved, sharePost, type SharedPostSeen, sharingClient, type SharingClient, status, sweepRule } from './kit.js';

interface PreviewCase extends PreviewSent { readonly what: string }

const LINK = 'https://cdn.social.example/tmp/preview.jpg?expires=3600';
const PERMALINK = 'https://social.example/previews/post.jpg';

const CASES: PreviewCase[] = [
  { what: 'preview_link only', preview_link: LINK },
  { what: 'preview_permalink only', preview_permalink: PERMALINK },
  { what: 'both', preview_link: LINK, preview_permalink: PERMALINK },
];

export default defineSpec({
  section: '2.8',
  title: 'shared_post previews: downloaded link, kept permalink',
  level: 'must',
  rules: [
    sweepRule<PreviewCase, SharedPostSeen, SharingClient>(
      { id: 'chat.shared-post.preview-stored', requires: ['write'], needs: ['ground-truth'],
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
      { id: 'chat.shared-post.preview-storage', level: 'info', requires: ['write'], needs: ['ground-truth'],
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
