/**
 * §4.1 Exchange code or refresh token, redirect_uri: "must match the Redirect URI in the integration settings exactly"
 * (§5.1.4 "identical"). Every form a normalising comparison would take for the same address is refused: another host
 * with the same path, an added fragment or query, a toggled trailing slash, changed case, the scheme swapped either
 * way, an explicit default port, a dot segment, a percent-encoded letter. Variants from generators/refresh-requests.ts.
 */
import {
  codeGrant, defineSpec, EQUIVALENT_SPELLINGS, exchange, freshCode, type HttpResponse, jsonObjectBody, REDIRECT_URI_VARIANTS, redirectUriVariant, type RedirectUriVariant, type RuleContext, status, sweepRule, whenRefused,
} from './kit.js';

const VARIANTS = Object.keys(REDIRECT_URI_VARIANTS) as RedirectUriVariant[];

/** The variants that change the configured Redirect URI (https-to-http only applies to an https one, and so on). */
const applicable = (t: RuleContext) => VARIANTS.filter((v) => redirectUriVariant(t.credentials.redirectUri, v) !== undefined);

export default defineSpec({
  section: '4.1',
  title: 'Exchange code or refresh token: redirect_uri compared exactly',
  level: 'must',
  rules: [
    sweepRule<RedirectUriVariant, HttpResponse>(
      { id: 'oauth.token.redirect-uri.variants', requires: [], needs: ['fresh-code'],
        title: 'A code exchange whose redirect_uri is an equivalent-looking form of the registered one is refused with 400',
        reading: '§4.1 "must match exactly", §5.1.4 "identical", RFC 6749 §3.1.2.3 (simple string comparison): no normalisation of case, scheme, port, slash, query, fragment or encoding. A fresh code per variant, JSON as the spec states; another 4xx is non_strict. A spelling that names the same resource under URL normalisation (host case, an explicit default port, a dot segment, a percent-encoded letter) accepted is recorded, not failed (K27): the comparison is exact, but nothing else can be reached through it.' },
      {
        named: applicable,
        what: 'redirect_uri variants',
        send: async (t, variant) => {
          const fields = codeGrant(t.target, await freshCode(t));
          return exchange(t, { ...fields, redirect_uri: redirectUriVariant(t.credentials.redirectUri, variant) });
        },
        expect: (_t, variant) => (EQUIVALENT_SPELLINGS.has(variant) ? [status(400, { accepted: 'informational' }), whenRefused(jsonObjectBody)] : [status(400), jsonObjectBody]),
        label: (variant) => variant,
      },
    ),
  ],
});
