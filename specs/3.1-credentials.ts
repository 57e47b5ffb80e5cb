/**
 * §3.1 Credentials: the refresh exchange and what it leaves behind (rotation, single use), §5.1.3 (secret optional on refresh).
 */
import { jsonObjectBody } from '../src/checks/json.js';
import { status } from '../src/checks/status.js';
import { refreshTokenPresent } from '../src/checks/token.js';
import { exchangeRule, rule } from '../src/model/define.js';
import { fail, pass } from '../src/model/outcome.js';
import { defineSpec } from '../src/model/rule.js';
import { accountRequest } from '../src/protocol/oauth.js';
import { obtainTokens, refreshTokens, tokensOf } from '../src/steps/oauth.js';

export default defineSpec({
  section: '3.1',
  title: 'Credentials: states and transitions',
  rules: [
    rule(
      { id: 'oauth.refresh.rotates', section: '3.1', level: 'must', requires: ['control'], title: 'A refresh exchange answers 200 with a new refresh token' },
      async (t) => {
        const first = await obtainTokens(t);
        const res = await refreshTokens(t, first.refresh_token);
        const findings = t.check(res, [status(200), refreshTokenPresent]);
        const next = (JSON.parse(res.text || '{}') as { refresh_token?: unknown }).refresh_token;
        if (typeof next === 'string') {
          findings.push(next !== first.refresh_token
            ? pass('new refresh token', 'the refresh token changed')
            : fail('new refresh token', 'expected a new refresh token, observed the one that was exchanged'));
        }
        return t.outcome(findings);
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.old-token-refused', section: '3.1', level: 'must', requires: ['control'], title: 'A refresh token already exchanged is refused',
        reading: '§3.1: the old refresh token becomes invalid. The exchange table names 400; the live service answers 401 "Token has been revoked" (FIELD-NOTES), which is non_strict.' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          tokensOf(await refreshTokens(t, first.refresh_token), 'the first refresh exchange');
          return refreshTokens(t, first.refresh_token);
        },
        expect: [status(400), jsonObjectBody],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.new-token-works', section: '3.1', level: 'must', requires: ['control'], title: 'The refresh token returned by a refresh exchange can itself be exchanged' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          const second = tokensOf(await refreshTokens(t, first.refresh_token), 'the first refresh exchange');
          return refreshTokens(t, second.refresh_token);
        },
        expect: [status(200), refreshTokenPresent],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.without-secret', section: '5.1', level: 'must', requires: ['control'], title: 'A refresh exchange without client_secret succeeds',
        reading: '§4.1 lists client_secret as optional for the refresh grant and §5.1.3 says "secret optional on refresh".' },
      {
        send: async (t) => refreshTokens(t, (await obtainTokens(t)).refresh_token, { withSecret: false }),
        expect: [status(200), refreshTokenPresent],
      },
    ),
    exchangeRule(
      { id: 'oauth.refresh.new-access-token-works', section: '5.1', level: 'must', requires: ['control'], title: 'The access token from a refresh exchange works at /api/v4/account' },
      {
        send: async (t) => {
          const first = await obtainTokens(t);
          const second = tokensOf(await refreshTokens(t, first.refresh_token), 'the refresh exchange');
          return t.send(accountRequest(t.target, second.access_token));
        },
        expect: [status(200)],
      },
    ),
  ],
});
