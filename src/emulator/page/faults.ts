/**
 * The fault switches of the access-granting page (./routes.ts), each read here with `faults.isOn('<name>')`
 * (test/faults/areas.test.ts checks it). ../faults.ts assembles every area's table. Grouped by the statement they
 * break, in the spec's order.
 */
import { defineFaults } from '../switches.js';

export const PAGE_FAULTS = defineFaults([
  // The access-granting page: login, accounts offered, permissions shown, modes, framing, its form (§4.1 "Access-granting page", §0)
  { name: 'page-csrf-unchecked', description: 'The access-granting page does not check its form\'s anti-forgery token: an Allow posted without it (or with another session\'s) is carried out.',
    caughtBy: ['oauth.page.allow-csrf'] },
  { name: 'page-csrf-token-optional', description: 'The page compares its form\'s anti-forgery token only when the form carries one: an Allow posted without it is carried out.',
    caughtBy: ['oauth.page.allow-csrf'] },
  { name: 'popup-mode-ignored', description: 'In popup mode the grant window itself goes to the Redirect URI; the main window stays.',
    caughtBy: ['oauth.page.allow-popup'] },
  { name: 'post-message-mode-ignored', description: 'In post_message mode the main window is redirected and the opened window closed, as in popup mode.',
    caughtBy: ['oauth.page.allow-post-message'] },
  { name: 'private-page-no-account', description: 'For a private integration the access-granting page offers no account at all (no choice, no account field, no account named).',
    caughtBy: ['oauth.page.private-single-account'] },
  { name: 'page-unknown-client-meta-refresh', description: 'The page with an unknown client_id and a redirect_uri answers 200 with a page whose meta refresh sends the browser to that redirect_uri (an open redirect without a 3xx).',
    caughtBy: ['oauth.page.unknown-client'] },
  { name: 'page-skips-login', description: 'The access-granting page shows the account choice without a login.',
    caughtBy: ['oauth.page.login-required'] },
  { name: 'page-crash-on-repeated-param', description: 'A repeated or bracketed page parameter gets a 500 instead of a 400 page.',
    caughtBy: ['oauth.page.no-server-error'] },
  { name: 'page-framable', description: 'The access-granting page carries no X-Frame-Options.',
    caughtBy: ['oauth.page.not-framable'] },
  { name: 'page-follows-redirect-uri', description: 'A redirect_uri added to the access-granting page\'s address is carried through its form, and Allow redirects there instead of to the registered Redirect URI.',
    caughtBy: ['oauth.page.registered-redirect-only'] },
  { name: 'page-hides-permissions', description: 'The access-granting page does not list the requested permissions.',
    caughtBy: ['oauth.page.shows-integration'] },
  { name: 'page-unknown-client-open-redirect', description: 'The access-granting page with an unknown client_id and a redirect_uri redirects to that redirect_uri with error=invalid_client (an open redirect).',
    caughtBy: ['oauth.page.unknown-client'] },
  { name: 'page-allow-redirect-carries-secret', description: 'Allow\'s redirect to the Redirect URI carries the integration\'s client_secret beside the code.',
    caughtBy: ['oauth.page.state-round-trip', 'oauth.page.allow-popup'] },
  { name: 'page-unknown-client-redirects', description: 'The page with a missing or unknown client_id redirects to the configured integration\'s Redirect URI with an error.',
    caughtBy: ['oauth.page.unknown-client'] },
] as const);
