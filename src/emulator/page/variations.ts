/**
 * The allowed variations of the access-granting page (./routes.ts), each read here with `variations.isOn('<name>')`
 * (test/faults/areas.test.ts checks it). ../variations.ts assembles every area's table.
 */
import { defineVariations } from '../switches.js';

export const PAGE_VARIATIONS = defineVariations([
  // The access-granting page (§4.1)
  { name: 'grant-page-coop', description: 'In post_message mode the access-granting page is served with Cross-Origin-Opener-Policy: same-origin, which severs the opened window from its opener.',
    basis: 'stated-behaviour/open-point: §4.1 post_message "the redirect happens inside the opened window … it may report the result to the main window"; whether it can is recorded (REQ-4.1-page-mode-post-message, K7).' },
  { name: 'grant-page-account-select', description: 'The access-granting page offers the accounts as the options of a <select name="account_id">, not as radio buttons.',
    basis: 'open-point: §4.1 behaviour 2 "the user picks among accounts where he is an administrator" says nothing of the control; the kit reads radio buttons and select options alike (review of 2026-11-27, access findings).', scope: 'oauth.*' },
] as const);
