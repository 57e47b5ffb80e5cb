/**
 * §2.2 access token as a JWT: the time claims the account API must enforce beyond exp.
 */
import { accountRequest, defineSpec, exchangeRule, type HttpResponse, status, tokenBeforeItsNbf } from './kit.js';

export default defineSpec({
  section: '2.2',
  title: 'Access token time claims',
  level: 'must',
  rules: [
    exchangeRule<HttpResponse, string>(
      { id: 'api.bearer.not-yet-valid', requires: ['control'], exclusive: true,
        title: 'An access token used an hour before its nbf time is refused with 401',
        reading: 'RFC 7519 §4.1.5: a JWT must not be accepted before its nbf. The token is issued while the control clock runs an hour ahead and used once the clock is back to real time, far beyond any skew leeway; RFC 6750 §3.1 gives 401 (403 is non_strict).' },
      {
        setup: tokenBeforeItsNbf,
        send: (t, token) => t.send(accountRequest(t.target, token)),
        expect: [status(401)],
      },
    ),
  ],
});
