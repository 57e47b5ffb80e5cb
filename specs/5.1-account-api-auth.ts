/**
 * §5.1 Account API authentication: the bearer access token.
 */
import { status } from '../src/checks/status.js';
import { exchangeRule } from '../src/model/define.js';
import { defineSpec } from '../src/model/rule.js';
import { accountRequest } from '../src/protocol/oauth.js';
import { obtainTokens } from '../src/steps/oauth.js';

export default defineSpec({
  section: '5.1',
  title: 'Account API authentication',
  rules: [
    exchangeRule(
      { id: 'api.bearer.access-token-works', section: '5.1', level: 'must', requires: ['control'], title: 'An access token from the code exchange works as a bearer at /api/v4/account' },
      { send: async (t) => t.send(accountRequest(t.target, (await obtainTokens(t)).access_token)), expect: [status(200)] },
    ),
    exchangeRule(
      { id: 'api.bearer.missing', section: '5.1', level: 'must', requires: [], title: '/api/v4/account without an Authorization header is refused with 401',
        reading: '§5.1.1: every /api/v4 request carries the bearer. 401 as RFC 6750 §3.1 states; 403 is non_strict.' },
      { send: (t) => t.send(accountRequest(t.target, undefined)), expect: [status(401)] },
    ),
  ],
});
