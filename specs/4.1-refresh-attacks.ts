/**
 * §4.1 Exchange code or refresh token, the refresh grant under attack: each field of a refresh exchange missing, bent
 * into a near miss or of the wrong JSON type is refused with 400, and a refused refresh leaves the refresh token usable
 * (§3.1: only an exchange consumes it). Cases come from generators/refresh-requests.ts.
 */
import fc from 'fast-check';
import {
  acceptanceOf, applyRefreshMutation, defineSpec, describeRefreshMutation, exchange, exchangeRule, jsonContentType, jsonObjectBody, nearMissesOf, noSecretEcho, obtainTokens, refreshGrant, refreshMutation, refreshTokenPresent, refreshTokens, type RefreshField, type RefreshMutation, type RuleContext, type RuleDraft, scenarioRule, status, step, eachStep, sweepRule, type TokenPair, whenRefused, wrongTypesOf,
} from './kit.js';

const refusal = [status(400), jsonContentType, jsonObjectBody] as const;

/**
 * How one broken refresh is judged: 400 passes, another 4xx is non_strict. Accepted: a value of another JSON type that
 * carries the valid one (coerced, K15) is non_strict, and so is any redirect_uri (RFC 6749 §6 does not check it on
 * refresh, K28); a wrong client or token accepted fails.
 */
function refreshRefusalOf(m: RefreshMutation) {
  const accepted = m.field === 'redirect_uri' ? 'non_strict' : acceptanceOf(m);
  return [status(400, accepted === 'non_strict' ? { accepted } : {}), jsonContentType, whenRefused(jsonObjectBody)];
}

/** A valid refresh exchange of `pair` with one field broken; a generated breakage that leaves it valid is discarded. */
function brokenRefresh(t: RuleContext, pair: TokenPair, m: RefreshMutation): Record<string, unknown> {
  const fields = applyRefreshMutation(refreshGrant(t.target, pair.refresh_token), m);
  fc.pre(fields !== undefined); // http-for-https on a value without https
  return fields!;
}

/** The named breakages that change the value on this target (http-for-https leaves a value without https alone). */
const applicable = (named: readonly RefreshMutation[]) => (t: RuleContext, pair: TokenPair) =>
  named.filter((m) => applyRefreshMutation(refreshGrant(t.target, pair.refresh_token), m) !== undefined);

const WHY: Record<RefreshField, string> = {
  client_id: 'the integration ID identifies the client on every exchange (§4.1; RFC 6749 §6 authenticates the client)',
  client_secret: 'the secret key is optional on refresh (§5.1.3), but one that is sent must be the right one (RFC 6749 §6)',
  refresh_token: 'the refresh token is what is exchanged (§3.1)',
  redirect_uri: 'it must match the settings exactly (§4.1, §5.1.4) when it is sent; RFC 6749 §6 does not check it on refresh, so a refresh that ignores it and succeeds is non_strict (K28)',
};

/** Every named breakage of `field` and generated ones, each refused with 400; one pair serves all (a refusal consumes nothing). */
function brokenRefreshRule(field: RefreshField, breakage: 'wrong' | 'wrong-type'): RuleDraft {
  const named = breakage === 'wrong' ? nearMissesOf(field) : wrongTypesOf(field);
  return sweepRule<RefreshMutation, Awaited<ReturnType<typeof exchange>>, TokenPair>(
    {
      id: `oauth.refresh.${field.replace('_', '-')}.${breakage}`,
      requires: [],
      needs: ['fresh-code'],
      title: `A refresh exchange with ${field} ${breakage === 'wrong' ? 'a wrong value (near misses, other strings)' : 'of the wrong JSON type'} is refused with 400 and a JSON body`,
      reading: `${WHY[field]}. Only the JSON encoding the spec states is sent. Another 4xx (401 for client credentials, RFC 6749 §5.2) is non_strict.${breakage === 'wrong-type' ? ' The valid value wrapped (["<valid>"], {"value":"<valid>"}) coerced and accepted is non_strict (K15); another value accepted fails.' : ''}`,
    },
    {
      setup: obtainTokens,
      named: applicable(named),
      // Wrong types are few and all named; near misses and other strings are generated too.
      ...(breakage === 'wrong' ? { cases: () => refreshMutation(field, breakage) } : {}),
      what: `${named.length} named breakages of ${field}`,
      send: (t, m, pair) => exchange(t, brokenRefresh(t, pair, m)),
      expect: (_t, m) => refreshRefusalOf(m),
      label: describeRefreshMutation,
    },
  );
}

/**
 * The refusals a refresh token must survive (§3.1: a refused exchange is no exchange): only breakages every server
 * must refuse. A near-miss redirect_uri (K28) or the secret wrapped in an array (K15) may be accepted, which would
 * consume the token, so they are not among them.
 */
const REFUSALS: readonly RefreshMutation[] = [
  { field: 'client_secret', breakage: 'wrong', nearMiss: 'char-appended' },
  { field: 'client_id', breakage: 'missing' },
  { field: 'client_id', breakage: 'wrong', nearMiss: 'upper-case' },
  { field: 'client_secret', breakage: 'wrong-type', wrongType: 'other', value: 42 },
];

export default defineSpec({
  section: '4.1',
  title: 'Exchange code or refresh token: the refresh grant under attack',
  level: 'must',
  rules: [
    exchangeRule<Awaited<ReturnType<typeof exchange>>, TokenPair>(
      { id: 'oauth.refresh.client-id.missing', requires: [], needs: ['fresh-code'], title: 'A refresh exchange without client_id is refused with 400 and a JSON body',
        reading: `${WHY.client_id}. Another 4xx is non_strict.` },
      { setup: obtainTokens, send: (t, pair) => exchange(t, brokenRefresh(t, pair, { field: 'client_id', breakage: 'missing' })), expect: refusal },
    ),
    brokenRefreshRule('client_id', 'wrong'),
    brokenRefreshRule('client_id', 'wrong-type'),
    brokenRefreshRule('client_secret', 'wrong'),
    brokenRefreshRule('client_secret', 'wrong-type'),
    brokenRefreshRule('refresh_token', 'wrong'),
    brokenRefreshRule('refresh_token', 'wrong-type'),
    brokenRefreshRule('redirect_uri', 'wrong'),
    exchangeRule(
      { id: 'oauth.refresh.refresh-token.missing', requires: [], title: 'A refresh exchange without refresh_token is refused with 400 and a JSON body',
        reading: 'grant_type refresh_token names what is exchanged (§4.1); without it there is nothing to exchange. Valid client fields are sent, so only the missing token can be blamed.' },
      {
        send: (t) => {
          const { refresh_token: _dropped, ...fields } = refreshGrant(t.target, 'unused');
          return exchange(t, fields);
        },
        expect: refusal,
      },
    ),
    scenarioRule<TokenPair>(
      { id: 'oauth.refresh.refusal-keeps-token', section: '3.1', requires: [], needs: ['fresh-code'],
        title: 'A refused refresh exchange does not consume the refresh token: it still works afterwards',
        reading: '§3.1: the old refresh token becomes invalid when it is exchanged; a refused request is no exchange. Otherwise anyone who sees a refresh token could burn it with a wrong secret (a denial of service on the integration).' },
      {
        setup: obtainTokens,
        steps: [
          eachStep<TokenPair, RefreshMutation>({
            items: () => REFUSALS,
            label: (m) => `refused (${describeRefreshMutation(m)})`,
            observe: (t, pair, m) => exchange(t, brokenRefresh(t, pair, m)),
            expect: () => [status(400)],
          }),
          step<TokenPair>('the refresh token afterwards', (t, pair) => refreshTokens(t, pair.refresh_token), [status(200), refreshTokenPresent]),
        ],
      },
    ),
    sweepRule<RefreshMutation, Awaited<ReturnType<typeof exchange>>, TokenPair>(
      { id: 'oauth.refresh.no-secret-echo', level: 'should', requires: [], needs: ['fresh-code'],
        title: 'No refused refresh exchange echoes the refresh token, the client secret or the wrong value sent' },
      {
        setup: obtainTokens,
        named: [...REFUSALS, { field: 'refresh_token', breakage: 'wrong', nearMiss: 'char-appended' }],
        send: (t, m, pair) => exchange(t, brokenRefresh(t, pair, m)),
        expect: (t, m, pair) => {
          const sent = brokenRefresh(t, pair, m);
          return [noSecretEcho([t.credentials.clientSecret, pair.refresh_token], { recorded: [sent.client_secret, sent.refresh_token].filter((v): v is string => typeof v === 'string') })];
        },
        label: describeRefreshMutation,
      },
    ),
  ],
});
