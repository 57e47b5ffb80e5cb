/**
 * §2.8 shared_post previews, as the account stores them (control API GET /_control/chat/messages): preview_link is
 * temporary, so its image is downloaded into the account; preview_permalink is permanent, kept as it is and not
 * downloaded, and takes priority when both are given. No answer of the spec shows what the account keeps, so what it
 * kept is recorded, not judged (open-point, C16 of the review).
 */
import { defineSpec, observedStatus, onAnswer, type PreviewSent, previewStoredObserved, sharePost, type SharedPostSeen, sharingClient, type SharingClient, sweepRule } from './kit.js';

interface PreviewCase extends PreviewSent { readonly what: string }

const LINK = 'https://cdn.social.example/tmp/preview.jpg?expires=3600';
const PERMALINK = 'https://social.example/previews/post.jpg';

export default defineSpec({
  section: '2.8',
  title: 'shared_post previews: downloaded link, kept permalink',
  level: 'info',
  rules: [
    sweepRule<PreviewCase, SharedPostSeen, SharingClient>(
      { id: 'chat.shared-post.preview-stored', requires: ['write'], needs: ['ground-truth'],
        title: 'Whether a shared_post\'s preview_link is stored as a downloaded copy, and preview_permalink kept as it is (winning when both are given)',
        reading: '§2.8: preview_link is temporary and "the image is downloaded into the account"; preview_permalink is permanent, "not downloaded", and "takes priority when both preview fields are given". The stored preview is read through the control API: its source (downloaded or permalink) and url (a downloaded copy has another url than the temporary link). Storage is shown by no answer of the spec: recorded, not judged.',
        covers: ['2.8/preview_link', '2.8/preview_permalink', '2.7/shared_post'] },
      {
        setup: sharingClient,
        named: [
          { what: 'preview_link only', preview_link: LINK },
          { what: 'preview_permalink only', preview_permalink: PERMALINK },
          { what: 'both', preview_link: LINK, preview_permalink: PERMALINK },
        ],
        send: (_t, c, f) => sharePost(f, c),
        expect: (_t, c) => [onAnswer(observedStatus('shared post')), previewStoredObserved(c)],
        label: (c) => c.what,
      },
    ),
  ],
});
