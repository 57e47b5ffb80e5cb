/**
 * §4.1 token endpoint, the HTTP statements the exchange rules leave: a valid exchange under another media type, the
 * RFC 6749 error member of each kind of refusal, and client credentials in HTTP Basic.
 */
import {
  codeGrant, defineSpec, errorMemberObserved, freshCode, exchangeRule, noTokenIssued, statusObserved, statusOneOf, sweepRule, tokenRequest, type RuleContext, type TokenFields,
} from './kit.js';

interface MediaCase {
  readonly what: string;
  /** undefined: no Content-Type header at all. */
  readonly contentType: string | undefined;
}
const MEDIA_CASES: readonly MediaCase[] = [
  { what: 'text/plain', contentType: 'text/plain' },
  { what: 'no Content-Type', contentType: undefined },
  { what: 'application/octet-stream', contentType: 'application/octet-stream' },
];

type Refusal = 'missing client_secret' | 'wrong client_secret' | 'unknown code' | 'used code' | 'unknown grant_type';
const REFUSALS: readonly Refusal[] = ['missing client_secret', 'wrong client_secret', 'unknown code', 'used code', 'unknown grant_type'];

/** The request of one kind of refusal; a used code is exchanged once first. */
async function refusalRequest(t: RuleContext, kind: Refusal): Promise<TokenFields> {
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

export default defineSpec({
  section: '4.1',
  title: 'Token endpoint: media types, error members, HTTP Basic',
  level: 'should',
  rules: [
    sweepRule<MediaCase>(
      { id: 'oauth.token.content-type-other', requires: [], needs: ['fresh-code'],
        title: 'A valid code exchange sent as text/plain, octet-stream or without Content-Type issues no token and is refused with 400 or 415',
        reading: '§4.1 names the JSON body (form-encoded is accepted too, docs/field-notes.md). A body under another media type is not a token request: 415 (RFC 9110 §15.5.16) or 400 (§4.1: invalid data); another 4xx is non_strict. Each body is a valid exchange with a fresh code, so a server that sniffs the body would issue a token, which fails.' },
      {
        named: MEDIA_CASES,
        send: async (t, c) => t.send({
          method: 'POST',
          url: `${t.target.baseUrl}/oauth2/access_token`,
          headers: c.contentType ? { 'content-type': c.contentType } : {},
          body: JSON.stringify(codeGrant(t.target, await freshCode(t))),
        }),
        expect: [noTokenIssued, statusOneOf([400, 415])],
        label: (c) => c.what,
      },
    ),
    sweepRule<Refusal>(
      { id: 'oauth.token.error-codes', level: 'info', requires: [], needs: ['fresh-code'],
        title: 'Records the status, media type and error member of each kind of refused code exchange',
        reading: 'RFC 6749 §5.2 names invalid_request, invalid_client, invalid_grant and unsupported_grant_type; §4.1 does not show the error body. Recorded per kind, not judged.' },
      {
        named: REFUSALS,
        send: async (t, kind) => t.send(tokenRequest(t.target, await refusalRequest(t, kind))),
        expect: [errorMemberObserved],
        label: (kind) => kind,
      },
    ),
    exchangeRule(
      { id: 'oauth.token.basic-auth', level: 'info', requires: [], needs: ['fresh-code'],
        title: 'Records whether a code exchange with the client credentials in HTTP Basic (none in the body) is accepted',
        reading: 'RFC 6749 §2.3.1: servers MUST support HTTP Basic for clients with a password; §4.1 puts client_id and client_secret in the body. Recorded, not judged.' },
      {
        send: async (t) => {
          const { client_id: _id, client_secret: _secret, ...rest } = codeGrant(t.target, await freshCode(t));
          const basic = Buffer.from(`${encodeURIComponent(t.credentials.clientId)}:${encodeURIComponent(t.credentials.clientSecret)}`).toString('base64');
          // The encoded pair reveals the secret: taught to the masker before it is sent.
          t.masker.add(basic);
          const req = tokenRequest(t.target, rest);
          return t.send({ ...req, headers: { ...req.headers, authorization: `Basic ${basic}` } });
        },
        expect: [statusObserved('HTTP Basic credentials', { accepted: 'accepted (RFC 6749 §2.3.1 client authentication)', refused: 'refused: only credentials in the body are taken' })],
      },
    ),
  ],
});
