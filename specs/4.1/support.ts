/**
 * What the rules of §4.1 share: fixtures, case tables and the makers of rule families.
 */
import fc from 'fast-check';
import {
  acceptanceOf, applyMutation, applyRefreshMutation, type ClientCredentials, codeGrant, describeRefreshMutation, exchange, type ForgedDecisionView, freshCode, jsonContentType, jsonObjectBody, mutation, type Mutation, nearMissesOf, obtainTokens, otherIntegration, parameterAbsent, parameterPresent, platformOneOrTwo, REDIRECT_URI_VARIANTS, redirectUriVariant, type RedirectUriVariant, type RedirectView, type RefreshField, refreshGrant, refreshMutation, type RefreshMutation, type RuleContext, type RuleDraft, type RuleMeta, status, sweepRule, type TokenBreakage, type TokenField, type TokenFields, type TokenPair, tokenRequest, whenRefused, wrongTypesOf,
} from '../kit.js';
import { brokenRefresh } from '../fixtures/oauth.js';

export const refusal = [status(400), jsonContentType, jsonObjectBody] as const;

/**
 * The sweeps that own the refusal's body (a JSON object with details) for their kind of refusal: an unknown code, a
 * missing client_id, a wrong client secret (item 5 of issue 28). Every refusal's media type is read, whichever sweep
 * it comes from (R3-A2: §4.1 "response Content-Type: application/json (also on error)" names every refusal of the
 * endpoint, and a refusal of one kind answered as an HTML page is no JSON for a client that met it there).
 */
export const JUDGES_BODY = new Set(['oauth.token.code.wrong', 'oauth.token.client-id.missing', 'oauth.token.client-secret.wrong']);

/**
 * How one broken exchange is judged: 400 passes, another 4xx (415 to a form body, 401 for client credentials) is
 * non_strict; an acceptance by the reading of what was broken (acceptanceOf: K11, K15); the body only where the rule
 * owns it and the request was JSON as the spec states (K16).
 */
export function refusalOf(id: string, m: Mutation, encoding: 'json' | 'form') {
  const accepted = acceptanceOf(m);
  return [
    status(400, accepted === 'non_strict' ? { accepted } : {}),
    ...(encoding === 'json' ? [whenRefused(jsonContentType)] : []),
    ...(JUDGES_BODY.has(id) && encoding === 'json' ? [jsonObjectBody] : []),
  ];
}

export const BREAKAGES: Record<TokenBreakage, string> = { missing: 'missing', wrong: 'a wrong value', 'wrong-type': 'a value of the wrong JSON type' };

export const TOKEN_WHY: Record<TokenField, string> = {
  client_id: 'the integration ID identifies the client (§5.1.3)',
  client_secret: 'the secret key is required for the code grant (§4.1, §5.1.3)',
  grant_type: 'only authorization_code and refresh_token exist (§4.1)',
  code: 'the code is what is exchanged (§3.1)',
  redirect_uri: 'it must match the settings exactly (§4.1, §5.1.4)',
};

export async function validFields(t: RuleContext): Promise<Record<TokenField, string>> {
  return codeGrant(t.target, await freshCode(t)) as Record<TokenField, string>;
}

/** A fresh valid code-grant request with one field broken (a fresh code per case, so a refusal cannot be blamed on a used code). */
export async function brokenRequest(t: RuleContext, m: Mutation): Promise<Record<string, unknown>> {
  const fields = applyMutation(await validFields(t), m);
  fc.pre(fields !== undefined); // the transform left this value valid (http-for-https on an http URI)
  return fields!;
}

export function brokenExchangeRule(field: TokenField, breakage: TokenBreakage): RuleDraft {
  const meta: RuleMeta = {
    id: `oauth.token.${field.replace('_', '-')}.${breakage}`,
    requires: [],
    needs: ['fresh-code'],
    title: `A code exchange with ${field} ${BREAKAGES[breakage]} is refused with 400 and a JSON body`,
    reading: `${TOKEN_WHY[field]}. Another 4xx (401 for client credentials, RFC 6749 §5.2; 415 to the form-encoded case) is non_strict.`
      + (acceptanceOf({ field, breakage, wrongType: 'wrapped-in-array' }) === 'non_strict' ? ` Accepted is non_strict: ${breakage === 'wrong-type' ? `a value of another JSON type coerced (["<valid>"]) is a departure, not a breach${acceptanceOf({ field, breakage, wrongType: 'other' }) === 'non_strict' ? ', and for a member that is no credential so is any other' : '; any other value (42, true) accepted fails'}` : 'the table does not mark the member required'}.` : '')
      + (field === 'grant_type' && breakage !== 'wrong-type' ? ' Accepted fails: grant_type is an enumeration ("`authorization_code` or `refresh_token`") and the member the grant is chosen by (R2-A8).' : '')
      + (JUDGES_BODY.has(`oauth.token.${field.replace('_', '-')}.${breakage}`) ? ' The refusal of a JSON request must be an application/json object with details (§4.1 "also on error").' : ' The refusal of a JSON request must be application/json (§4.1 "also on error", R3-A2); its body is judged by the rule that owns its kind of refusal (oauth.token.code.wrong, .client-id.missing, .client-secret.wrong, oauth.code.expired, oauth.token.code-reuse, oauth.refresh.old-token-refused).'),
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

export const BROWSER = ['browser'] as const;

export const NOT_WIDGET = 'it is sent only with the hook after a widget installation';

export const allowChecks = [parameterPresent('code'), parameterPresent('referer'), platformOneOrTwo, parameterAbsent('from_widget', NOT_WIDGET, 'falsy'), parameterAbsent('error', 'the user allowed')];

/** The query of the redirect a page view led to (the step before has checked there was one). */
export const paramsOf = async (_t: RuleContext, v: RedirectView) => v.hit!.params;

/** Queries naming no integration the service knows. */
/** An address no integration registered: an unknown client must not send the browser there (an open redirect). */
export const FOREIGN_REDIRECT = encodeURIComponent('https://attacker.example/cb');

export const UNKNOWN_CLIENT_QUERIES: readonly string[] = [
  '', '?client_id=', '?client_id=00000000-0000-4000-8000-000000000000&state=x', '?state=x&mode=popup',
  `?client_id=00000000-0000-4000-8000-000000000000&redirect_uri=${FOREIGN_REDIRECT}&state=x`, `?redirect_uri=${FOREIGN_REDIRECT}`,
];

/** Allows in a row by the fresh-code rule. */
export const ALLOWS = 3;

export interface Integrations {
  readonly integrations: readonly { readonly client_id: string; readonly installed_in: readonly number[] }[];
}

/**
 * How one broken refresh is judged: 400 passes, another 4xx is non_strict. Accepted: a value of another JSON type that
 * carries the valid one (coerced, K15) is non_strict, and so is any redirect_uri (RFC 6749 §6 does not check it on
 * refresh, K28) and a `client_secret: null` taken for no secret ("listed as optional for the refresh grant", R2-A11);
 * a wrong client or token accepted fails, and so does a secret of 42 or true.
 */
export function refreshRefusalOf(m: RefreshMutation) {
  const nullForOptional = m.field === 'client_secret' && m.breakage === 'wrong-type' && m.value === null;
  const accepted = m.field === 'redirect_uri' || nullForOptional ? 'non_strict' : acceptanceOf(m);
  return [status(400, accepted === 'non_strict' ? { accepted } : {}), jsonContentType, whenRefused(jsonObjectBody)];
}

/** The named breakages that change the value on this target (http-for-https leaves a value without https alone). */
export const applicableMutations = (named: readonly RefreshMutation[]) => (t: RuleContext, pair: TokenPair) =>
  named.filter((m) => applyRefreshMutation(refreshGrant(t.target, pair.refresh_token), m) !== undefined);

export const REFRESH_WHY: Record<RefreshField, string> = {
  client_id: 'the integration ID identifies the client on every exchange (§4.1; RFC 6749 §6 authenticates the client)',
  client_secret: 'the secret key is optional on refresh (§5.1.3), but one that is sent must be the right one (RFC 6749 §6)',
  refresh_token: 'the refresh token is what is exchanged (§3.1)',
  redirect_uri: 'it must match the settings exactly (§4.1, §5.1.4) when it is sent; RFC 6749 §6 does not check it on refresh, so a refresh that ignores it and succeeds is non_strict (K28)',
};

/** Every named breakage of `field` and generated ones, each refused with 400; one pair serves all (a refusal consumes nothing). */
export function brokenRefreshRule(field: RefreshField, breakage: 'wrong' | 'wrong-type'): RuleDraft {
  const named = breakage === 'wrong' ? nearMissesOf(field) : wrongTypesOf(field);
  return sweepRule<RefreshMutation, Awaited<ReturnType<typeof exchange>>, TokenPair>(
    {
      id: `oauth.refresh.${field.replace('_', '-')}.${breakage}`,
      requires: [],
      needs: ['fresh-code'],
      title: `A refresh exchange with ${field} ${breakage === 'wrong' ? 'a wrong value (near misses, other strings)' : 'of the wrong JSON type'} is refused with 400 and a JSON body`,
      reading: `${REFRESH_WHY[field]}. Only the JSON encoding the spec states is sent. Another 4xx (401 for client credentials, RFC 6749 §5.2) is non_strict.${breakage === 'wrong-type' ? ` The valid value wrapped (["<valid>"], {"value":"<valid>"}) coerced and accepted is non_strict (K15)${field === 'client_secret' ? ', and so is null read as no secret (the secret is optional on refresh, R2-A11)' : ''}; another value accepted fails.` : ''}`,
    },
    {
      setup: obtainTokens,
      named: applicableMutations(named),
      // Wrong types are few and all named; near misses and other strings are generated too.
      ...(breakage === 'wrong' ? { cases: () => refreshMutation(field, breakage) } : {}),
      what: `${named.length} named breakages of ${field}`,
      send: (t, m, pair) => exchange(t, brokenRefresh(t, pair, m)),
      expect: (_t, m) => refreshRefusalOf(m),
      label: describeRefreshMutation,
    },
  );
}

/** Another client's or account's code or refresh token refused: 400, application/json (§4.1 "also on error", R3-A2) with an object body. */
export const bindingRefusal = [status(400), whenRefused(jsonContentType), jsonObjectBody] as const;

export interface Other {
  readonly other: ClientCredentials;
}

export const withOther = async (t: RuleContext): Promise<Other> => ({ other: await otherIntegration(t) });

export const OTHER_READING = 'The second integration is the control API\'s (its secret key set through it), else CLIENT_ID_2 of the settings with codes from its own access-granting page; both sets of credentials are genuine, so only the binding can refuse.';

export const VARIANTS = Object.keys(REDIRECT_URI_VARIANTS) as RedirectUriVariant[];

/** The variants that change the configured Redirect URI (https-to-http only applies to an https one, and so on). */
export const applicableVariants = (t: RuleContext) => VARIANTS.filter((v) => redirectUriVariant(t.credentials.redirectUri, v) !== undefined);

export interface MediaCase {
  readonly what: string;
  /** undefined: no Content-Type header at all. */
  readonly contentType: string | undefined;
}

export const MEDIA_CASES: readonly MediaCase[] = [
  { what: 'text/plain', contentType: 'text/plain' },
  { what: 'no Content-Type', contentType: undefined },
  { what: 'application/octet-stream', contentType: 'application/octet-stream' },
];

export type Refusal = 'missing client_secret' | 'wrong client_secret' | 'unknown code' | 'used code' | 'unknown grant_type';

export const REFUSALS: readonly Refusal[] = ['missing client_secret', 'wrong client_secret', 'unknown code', 'used code', 'unknown grant_type'];

/** The request of one kind of refusal; a used code is exchanged once first. */
export async function refusalRequest(t: RuleContext, kind: Refusal): Promise<TokenFields> {
  const grant = codeGrant(t.target, kind === 'unknown code' ? 'not-a-code-anyone-issued' : await freshCode(t));
  switch (kind) {
    case 'missing client_secret': {
      const { client_secret: _omitted, ...rest } = grant;
      return rest;
    }
    case 'wrong client_secret': return { ...grant, client_secret: `${String(grant.client_secret)}-wrong` };
    case 'used code':
      await t.send(tokenRequest(t.target, grant));
      return grant;
    case 'unknown grant_type': return { ...grant, grant_type: 'password' };
    case 'unknown code': return grant;
  }
}

export type Forged = { crossSite: ForgedDecisionView; withoutToken: ForgedDecisionView };

/** Top-level JSON values that are not the object a token request is; `array-of-valid` wraps a valid exchange. */
export const WRONG_TOP_LEVEL = ['array-of-valid', 'empty-array', 'string', 'number', 'null', 'true'] as const;

export type WrongTopLevel = (typeof WRONG_TOP_LEVEL)[number];

/** Padding of the oversized token request: twice the 1 MB a JSON API is commonly held to. */
export const OVERSIZED_BYTES = 2 * 1024 * 1024;
