/**
 * §4.1 Exchange code or refresh token, with §5.1 points 3–4 and the first rows of §7: what the token endpoint
 * refuses, and how. Invalid requests come from generators/token-requests.ts, each breaking one field one way.
 */
import fc from 'fast-check';
import {
  acceptanceOf, accountRequest, anyJsonBody, applyMutation, codeGrant, defineSpec, exchange, exchangeFreshCode, exchangeRule, freshCode, jsonContentType, jsonObjectBody, mutation, type Mutation, noSecretEcho, noServerError, notJsonText, observedStatus, propertyRule, sweepRule, type RuleContext, type RuleDraft, type RuleMeta, status, TOKEN_FIELDS, type TokenBreakage, type TokenField, tokensOf,
} from './kit.js';

const refusal = [status(400), jsonContentType, jsonObjectBody] as const;

/**
 * The rules that own "response Content-Type: application/json (also on error)" (REQ-4.1-exchange-error-json) judge the
 * refusal's body; the others judge only the status, so one non-JSON refusal is one failure, not ten (one-observation, K16).
 */
const JUDGES_BODY = new Set(['oauth.token.code.wrong', 'oauth.token.client-id.missing']);

/**
 * How one broken exchange is judged: 400 passes, another 4xx (415 to a form body, 401 for client credentials) is
 * non_strict; an acceptance by the reading of what was broken (acceptanceOf: K11, K15); the body only where the rule
 * owns it and the request was JSON as the spec states (K16).
 */
function refusalOf(id: string, m: Mutation, encoding: 'json' | 'form') {
  const accepted = acceptanceOf(m);
  return [
    status(400, accepted === 'non_strict' ? { accepted } : {}),
    ...(JUDGES_BODY.has(id) && encoding === 'json' ? [jsonContentType, jsonObjectBody] : []),
  ];
}

const BREAKAGES: Record<TokenBreakage, string> = { missing: 'missing', wrong: 'a wrong value', 'wrong-type': 'a value of the wrong JSON type' };
const WHY: Record<TokenField, string> = {
  client_id: 'the integration ID identifies the client (§5.1.3)',
  client_secret: 'the secret key is required for the code grant (§4.1, §5.1.3)',
  grant_type: 'only authorization_code and refresh_token exist (§4.1)',
  code: 'the code is what is exchanged (§3.1)',
  redirect_uri: 'it must match the settings exactly (§4.1, §5.1.4)',
};

async function validFields(t: RuleContext): Promise<Record<TokenField, string>> {
  return codeGrant(t.target, await freshCode(t)) as Record<TokenField, string>;
}

/** A fresh valid code-grant request with one field broken (a fresh code per case, so a refusal cannot be blamed on a used code). */
async function brokenRequest(t: RuleContext, m: Mutation): Promise<Record<string, unknown>> {
  const fields = applyMutation(await validFields(t), m);
  fc.pre(fields !== undefined); // the transform left this value valid (http-for-https on an http URI)
  return fields!;
}

function brokenExchangeRule(field: TokenField, breakage: TokenBreakage): RuleDraft {
  const meta: RuleMeta = {
    id: `oauth.token.${field.replace('_', '-')}.${breakage}`,
    requires: [],
    needs: ['fresh-code'],
    title: `A code exchange with ${field} ${BREAKAGES[breakage]} is refused with 400 and a JSON body`,
    reading: `${WHY[field]}. Another 4xx (401 for client credentials, RFC 6749 §5.2; 415 to the form-encoded case) is non_strict.`
      + (acceptanceOf({ field, breakage, wrongType: 'wrapped-in-array' }) === 'non_strict' ? ` Accepted is non_strict: ${breakage === 'wrong-type' ? 'a value of another JSON type coerced (["<valid>"]) is a departure, not a breach, and for a member that is no credential so is any other' : 'the table does not mark the member required'}.` : '')
      + (JUDGES_BODY.has(`oauth.token.${field.replace('_', '-')}.${breakage}`) ? ' The refusal of a JSON request must be an application/json object with details (§4.1 "also on error").' : ' The refusal\'s body is judged by oauth.token.code.wrong and oauth.token.client-id.missing (one observation, one verdict).'),
  };
  type Case = { m: Mutation; encoding: 'json' | 'form' };
  // The shapes a wrong type takes ([valid], { value: valid }, true) every run, whatever the case count: each has its own
  // reading (a coerced valid value is non_strict, a loose `true` taken as a secret is a breach).
  const named: Case[] = breakage === 'wrong-type'
    ? [{ m: { field, breakage, wrongType: 'wrapped-in-array' }, encoding: 'json' }, { m: { field, breakage, wrongType: 'wrapped-in-object' }, encoding: 'json' }, { m: { field, breakage, wrongType: 'other', value: true }, encoding: 'json' }]
    : [];
  return sweepRule<Case>(meta, {
    named,
    cases: () => fc.record({
      m: mutation(field, breakage),
      encoding: breakage === 'wrong-type' ? fc.constant('json' as const) : fc.constantFrom('json' as const, 'form' as const),
    }),
    send: async (t, { m, encoding }) => exchange(t, await brokenRequest(t, m), encoding),
    expect: (_t, { m, encoding }) => refusalOf(meta.id, m, encoding),
    label: ({ m, encoding }) => `${'wrongType' in m ? m.wrongType : m.breakage} (${encoding})`,
  });
}

export default defineSpec({
  section: '4.1',
  title: 'Exchange code or refresh token',
  level: 'must',
  rules: [
    ...TOKEN_FIELDS.flatMap((field) => (['missing', 'wrong', 'wrong-type'] as const).map((b) => brokenExchangeRule(field, b))),

    propertyRule(
      { id: 'oauth.token.body-not-json', requires: [], title: 'A body that is not JSON is refused with 400 and a JSON body',
        reading: 'The request Content-Type is application/json; a body that does not parse is invalid data.' },
      {
        cases: () => notJsonText,
        send: (t, text) => t.send({ method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': 'application/json' }, body: text }),
        expect: refusal,
      },
    ),

    exchangeRule(
      { id: 'oauth.token.code-reuse', section: '3.1', requires: [], needs: ['one-code'], title: 'An authorization code exchanged once is refused the second time',
        reading: 'The spec says a code is exchanged for the pair; RFC 6749 §4.1.2 makes it single-use. A second exchange gets 400 (another 4xx is non_strict).' },
      {
        send: async (t) => {
          const fields = codeGrant(t.target, await freshCode(t));
          await exchange(t, fields);
          return exchange(t, fields);
        },
        expect: [status(400), jsonObjectBody],
      },
    ),

    exchangeRule(
      { id: 'oauth.token.code-reuse-revokes', section: '3.1', level: 'should', requires: [], needs: ['one-code'], title: 'Reusing a code revokes the access token first issued for it',
        reading: 'RFC 6749 §4.1.2: the server SHOULD revoke all tokens previously issued from a code that is used twice (a stolen code was replayed). The spec does not restate it: an access token that still works is non_strict (K10); 403 is non_strict too.' },
      {
        send: async (t) => {
          const fields = codeGrant(t.target, await freshCode(t));
          const first = tokensOf(await exchange(t, fields), 'the first exchange');
          await exchange(t, fields);
          return t.send(accountRequest(t.target, first.access_token));
        },
        expect: [status(401, { accepted: 'non_strict' })],
      },
    ),

    propertyRule(
      { id: 'oauth.token.no-secret-echo', level: 'should', requires: [], needs: ['fresh-code'], title: 'No refusal echoes the client secret (an echoed code or wrong secret is recorded)',
        reading: 'The client secret is the credential that must not travel back (§2.1 "visible only to administrators"); a code or a wrong value the client sent itself, echoed, is recorded (K23).' },
      {
        cases: () => fc.constantFrom(...TOKEN_FIELDS).chain((field) => mutation(field, 'wrong')),
        send: async (t, m) => exchange(t, await brokenRequest(t, m)),
        expect: (t) => [noSecretEcho([t.credentials.clientSecret], { requestFields: ['code', 'client_secret'] })],
      },
    ),

    propertyRule(
      { id: 'oauth.token.no-server-error', level: 'should', requires: [], title: 'Arbitrary JSON, form or malformed bodies never cause a 5xx' },
      {
        cases: () => fc.oneof(
          notJsonText.map((body) => ({ type: 'application/json', body })),
          anyJsonBody.map((body) => ({ type: 'application/json', body })),
          fc.dictionary(fc.constantFrom(...TOKEN_FIELDS, 'x'), fc.string({ maxLength: 12 })).map((d) => ({ type: 'application/x-www-form-urlencoded', body: new URLSearchParams(d).toString() })),
        ),
        send: (t, c) => t.send({ method: 'POST', url: `${t.target.baseUrl}/oauth2/access_token`, headers: { 'content-type': c.type }, body: c.body }),
        expect: [noServerError],
      },
    ),

    exchangeRule(
      { id: 'oauth.token.form-encoded', level: 'info', requires: [], needs: ['one-code'], title: 'Whether a form-encoded code exchange is accepted (public PHP clients send one)',
        reading: 'The spec states a JSON request; docs/field-notes.md records form-encoded requests from the PHP client. Reported, not judged.' },
      {
        send: (t) => exchangeFreshCode(t, 'form'),
        expect: [observedStatus('form-encoded exchange', { json200: 'with a token pair' })],
      },
    ),
  ],
});

