/**
 * Test-only fault switches, each declared once: its name, what it breaks, and the rules that catch it. Each one breaks
 * exactly one behaviour of the reference implementation, so that every conformance rule can be shown able to fail (a
 * rule that cannot fail proves nothing). All are off by default; they are switched through `startEmulator({ faults })`,
 * `RunningEmulator.faults` or `POST /_control/faults`. `test/faults/faults.test.ts` switches each on alone and expects
 * every rule in `caughtBy` to fail (an `info` rule to report something different); it also fails when a `must` or
 * `should` rule is caught by no fault. `conformance faults` and docs/faults.md are generated from this list.
 */

export interface FaultInfo {
  readonly name: string;
  readonly description: string;
  /** Rule ids that fail (or, for `info` rules, report differently) when this fault alone is on. */
  readonly caughtBy: readonly string[];
}

const defineFaults = <const T extends readonly FaultInfo[]>(list: T): T => list;

export const FAULTS = defineFaults([
  // Token exchange: request validation (§4.1, §3.1, §5.1)
  { name: 'accept-reused-code', description: 'An authorization code can be exchanged more than once.',
    caughtBy: ['oauth.token.code-reuse', 'oauth.token.code-reuse-revokes'] },
  { name: 'no-revoke-on-code-reuse', description: 'A reused code is refused, but the tokens issued from it are not revoked (RFC 6749 §4.1.2).',
    caughtBy: ['oauth.token.code-reuse-revokes'] },
  { name: 'accept-missing-code', description: 'A code grant without a code issues tokens for the administrator anyway.',
    caughtBy: ['oauth.token.code.missing'] },
  { name: 'accept-expired-code', description: 'The 20-minute age of an authorization code is not checked.',
    caughtBy: ['oauth.code.expired'] },
  { name: 'skip-redirect-uri-check', description: 'redirect_uri is not compared with the registered Redirect URI.',
    caughtBy: ['oauth.token.redirect-uri.missing', 'oauth.token.redirect-uri.wrong'] },
  { name: 'skip-client-id-check', description: 'Any client_id (or none) is accepted.',
    caughtBy: ['oauth.token.client-id.missing', 'oauth.token.client-id.wrong'] },
  { name: 'skip-client-secret-check', description: 'client_secret is not checked on the code grant (missing or wrong accepted).',
    caughtBy: ['oauth.token.client-secret.missing', 'oauth.token.client-secret.wrong'] },
  { name: 'accept-unknown-grant-type', description: 'An unknown or missing grant_type is treated as authorization_code.',
    caughtBy: ['oauth.token.grant-type.missing', 'oauth.token.grant-type.wrong'] },
  { name: 'accept-wrong-types', description: 'A number, array or object where a string is expected is coerced with String() and accepted.',
    caughtBy: ['oauth.token.client-id.wrong-type', 'oauth.token.client-secret.wrong-type', 'oauth.token.grant-type.wrong-type', 'oauth.token.code.wrong-type', 'oauth.token.redirect-uri.wrong-type'] },
  { name: 'reject-form-encoded', description: 'application/x-www-form-urlencoded token requests are refused with 400.',
    caughtBy: ['oauth.token.form-encoded'] },
  // Token exchange: refresh grant (§2.2, §3.1)
  { name: 'reuse-old-refresh-token', description: 'An exchanged refresh token keeps working.',
    caughtBy: ['oauth.refresh.old-token-refused', 'oauth.refresh.concurrent-single-use'] },
  { name: 'refresh-returns-same-token', description: 'The refresh exchange returns the same refresh token it was given (which stays valid).',
    caughtBy: ['oauth.refresh.rotates'] },
  { name: 'refresh-requires-secret', description: 'A refresh exchange without client_secret is refused with 400.',
    caughtBy: ['oauth.refresh.without-secret'] },
  { name: 'new-refresh-token-dead', description: 'The refresh token returned by a refresh exchange is not stored, so it is refused when used.',
    caughtBy: ['oauth.refresh.new-token-works'] },
  { name: 'accept-expired-refresh-token', description: 'The 3-month lifetime of a refresh token is not checked.',
    caughtBy: ['oauth.refresh.expired'] },
  // Token exchange: response shape (§2.3)
  { name: 'expires-in-as-string', description: 'expires_in is sent as a string ("86400").',
    caughtBy: ['oauth.token-response.expires-in'] },
  { name: 'drop-server-time', description: 'server_time is omitted from the token response.',
    caughtBy: ['oauth.token-response.server-time'] },
  { name: 'server-time-in-ms', description: 'server_time is sent in milliseconds.',
    caughtBy: ['oauth.token-response.server-time'] },
  { name: 'token-type-mac', description: 'token_type is "mac".',
    caughtBy: ['oauth.token-response.token-type'] },
  { name: 'drop-refresh-token', description: 'refresh_token is omitted from the token response.',
    caughtBy: ['oauth.token-response.refresh-token'] },
  { name: 'access-token-not-jwt', description: 'access_token is an opaque random string, not a JWT (it still works on the API).',
    caughtBy: ['oauth.token-response.access-token-jwt'] },
  { name: 'token-response-text-plain', description: 'A successful token response is sent as text/plain.',
    caughtBy: ['oauth.token-response.content-type'] },
  { name: 'nbf-in-future', description: 'Access tokens carry nbf five minutes ahead, so the API refuses them when they are fresh.',
    caughtBy: ['api.bearer.access-token-works', 'oauth.refresh.new-access-token-works'] },
  { name: 'jwt-exp-mismatch', description: 'The JWT exp claim is one hour later than iat + expires_in.',
    caughtBy: ['oauth.token-response.jwt-expiry'] },
  // Token exchange: errors (§7) and robustness
  { name: 'error-as-html', description: 'Token exchange errors are answered as text/html bodies.',
    caughtBy: ['oauth.token.code.wrong', 'oauth.token.body-not-json'] },
  { name: 'error-status-200', description: 'Token exchange validation failures are answered 200 with the error JSON.',
    caughtBy: ['oauth.token.client-id.wrong', 'oauth.token.body-not-json'] },
  { name: 'crash-on-malformed-body', description: 'An unparseable request body yields a 500.',
    caughtBy: ['oauth.token.body-not-json', 'oauth.token.no-server-error'] },
  { name: 'echo-secret-in-error', description: 'Token exchange error bodies echo the received client_secret, code and refresh_token in detail.',
    caughtBy: ['oauth.token.no-secret-echo'] },
  // Access-granting redirect (§4.1)
  { name: 'drop-state', description: 'The redirect after Allow or Deny leaves out the state that was passed.',
    caughtBy: ['oauth.redirect.state-round-trip', 'oauth.page.state-round-trip'] },
  // Account API bearer checks (§5.1, §3.1)
  { name: 'bearer-not-checked', description: '/api/v4 accepts any bearer token, or none.',
    caughtBy: ['api.bearer.missing', 'oauth.token.code-reuse-revokes', 'api.bearer.malformed', 'api.bearer.forged'] },
  { name: 'ignore-token-expiry', description: 'Expired access tokens are accepted.',
    caughtBy: ['api.bearer.expired', 'api.long-lived.expired'] },
  { name: 'accept-revoked-token', description: 'Revoked access tokens are accepted.',
    caughtBy: ['oauth.token.code-reuse-revokes', 'api.long-lived.revoked'] },
  // Access lifecycle (§2.1, §2.2, §3.1, §4.1, §5.1, §5.3, §6)
  { name: 'short-code-lifetime', description: 'Authorization codes expire after 15 minutes instead of 20.',
    caughtBy: ['oauth.code.valid-before-expiry'] },
  { name: 'short-refresh-lifetime', description: 'Refresh tokens expire after 60 days instead of 3 months.',
    caughtBy: ['oauth.refresh.valid-before-expiry'] },
  { name: 'refresh-check-then-act', description: 'A refresh token is marked used only after the new tokens are minted, so parallel exchanges of one token all succeed.',
    caughtBy: ['oauth.refresh.concurrent-single-use'] },
  { name: 'deactivation-keeps-tokens', description: 'Deactivating an installation does not revoke its tokens.',
    caughtBy: ['api.bearer.deactivated-installation'] },
  { name: 'skip-jwt-signature-check', description: 'A bearer JWT is looked up by its jti without verifying its signature.',
    caughtBy: ['api.bearer.forged'] },
  { name: 'long-lived-token-refused', description: 'Long-lived tokens are refused as bearers.',
    caughtBy: ['api.long-lived.works'] },
  { name: 'long-lived-refreshable', description: 'A long-lived token is accepted as a refresh_token by the refresh grant.',
    caughtBy: ['oauth.long-lived.no-refresh'] },
  { name: 'old-secret-still-valid', description: 'After the secret key is regenerated, the previous secret is still accepted.',
    caughtBy: ['oauth.secret.regenerated'] },
  { name: 'state-unescaped', description: 'state is appended to the redirect without URL encoding.',
    caughtBy: ['oauth.redirect.state-round-trip'] },
  { name: 'state-always-sent', description: 'The redirect carries an empty state when none was passed.',
    caughtBy: ['oauth.redirect.no-state'] },
  { name: 'platform-as-name', description: 'platform is sent as "global" or "regional" instead of 2 or 1.',
    caughtBy: ['oauth.redirect.allow-parameters'] },
  { name: 'from-widget-always', description: 'from_widget is sent on every Allow redirect, not only for a widget installation hook.',
    caughtBy: ['oauth.redirect.allow-parameters'] },
  { name: 'widget-hook-without-from-widget', description: 'The widget installation hook lacks from_widget.',
    caughtBy: ['oauth.redirect.widget-hook'] },
  { name: 'deny-without-error', description: 'The Deny redirect carries no error=access_denied.',
    caughtBy: ['oauth.redirect.deny', 'oauth.page.deny'] },
  { name: 'page-skips-login', description: 'The access-granting page shows the account choice without a login.',
    caughtBy: ['oauth.page.login-required'] },
  { name: 'page-hides-permissions', description: 'The access-granting page does not list the requested permissions.',
    caughtBy: ['oauth.page.shows-integration'] },
  { name: 'private-lists-all-accounts', description: 'A private integration offers every account of the user, not exactly one.',
    caughtBy: ['oauth.page.private-single-account'] },
  { name: 'popup-mode-ignored', description: 'In popup mode the grant window itself goes to the Redirect URI; the main window stays.',
    caughtBy: ['oauth.page.allow-popup'] },
  { name: 'post-message-mode-ignored', description: 'In post_message mode the main window is redirected and the opened window closed, as in popup mode.',
    caughtBy: ['oauth.page.allow-post-message'] },
  { name: 'hook-missing-client-uuid', description: 'The disconnect hook is sent without client_uuid.',
    caughtBy: ['hook.disconnect.parameters'] },
  { name: 'hook-signature-reversed', description: 'The disconnect hook signs `account_id|client_uuid` instead of `client_uuid|account_id`.',
    caughtBy: ['hook.disconnect.signature'] },
  { name: 'hook-client-uuid-wrong', description: 'The disconnect hook sends the account\'s chat id as client_uuid (and signs that).',
    caughtBy: ['hook.disconnect.client-uuid'] },
  // Access, lists and HTTP robustness: statements added by the inventory (§2–§9)
  { name: 'refresh-ignores-client-id', description: 'The refresh grant takes the client from the refresh token when client_id is missing, unknown or not a string.',
    caughtBy: ['oauth.refresh.client-id.missing', 'oauth.refresh.client-id.wrong', 'oauth.refresh.client-id.wrong-type'] },
  { name: 'refresh-ignores-wrong-secret', description: 'A wrong or non-string client_secret on the refresh grant is ignored as if none was sent.',
    caughtBy: ['oauth.refresh.client-secret.wrong', 'oauth.refresh.client-secret.wrong-type'] },
  { name: 'refresh-token-prefix-match', description: 'A refresh token is matched by its first 32 characters and trimmed, so near misses of a real token work.',
    caughtBy: ['oauth.refresh.refresh-token.wrong'] },
  { name: 'refresh-token-coerced', description: 'A non-string refresh_token is coerced with String() (an array of the token works).',
    caughtBy: ['oauth.refresh.refresh-token.wrong-type'] },
  { name: 'refresh-ignores-redirect-uri', description: 'redirect_uri is not compared on the refresh grant.',
    caughtBy: ['oauth.refresh.redirect-uri.wrong'] },
  { name: 'refresh-missing-token-issues', description: 'A refresh grant without refresh_token issues a pair for the administrator anyway.',
    caughtBy: ['oauth.refresh.refresh-token.missing'] },
  { name: 'refresh-consumed-on-refusal', description: 'A refresh token is marked used before the request is validated, so a refused refresh burns it.',
    caughtBy: ['oauth.refresh.refusal-keeps-token'] },
  { name: 'echo-refresh-token-in-error', description: 'Refused refresh exchanges quote the refresh token and client secret received.',
    caughtBy: ['oauth.refresh.no-secret-echo'] },
  { name: 'code-not-bound-to-client', description: 'An authorization code is exchanged for whichever integration presents it.',
    caughtBy: ['oauth.token.code-bound-to-client'] },
  { name: 'refresh-not-bound-to-client', description: 'A refresh token is exchanged for whichever integration presents it.',
    caughtBy: ['oauth.refresh.bound-to-client'] },
  { name: 'refresh-accepts-code', description: 'The refresh grant accepts an unused authorization code as refresh_token.',
    caughtBy: ['oauth.token.grant-confusion'] },
  { name: 'bearer-accepts-refresh-token', description: 'A refresh token or an authorization code passes as a bearer for its grant.',
    caughtBy: ['api.bearer.not-an-access-token'] },
  { name: 'deactivation-keeps-refresh-tokens', description: 'Deactivation revokes the access tokens but the refresh tokens still exchange.',
    caughtBy: ['oauth.deactivation.revokes-credentials'] },
  { name: 'deactivation-keeps-long-lived', description: 'Deactivation leaves the installation\'s long-lived tokens working.',
    caughtBy: ['oauth.deactivation.revokes-credentials'] },
  { name: 'disconnect-keeps-tokens', description: 'A user\'s disconnect leaves every credential of the installation working.',
    caughtBy: ['oauth.disconnect.revokes-credentials'] },
  { name: 'code-reuse-spares-refresh', description: 'A reused code revokes the access token issued for it but not the refresh token.',
    caughtBy: ['oauth.token.code-reuse-revokes-refresh'] },
  { name: 'code-check-then-act', description: 'A code is marked used only after a slow store write, so parallel exchanges of one code all succeed.',
    caughtBy: ['oauth.token.code-concurrent-single-use'] },
  { name: 'jwt-signature-stripped', description: 'Access tokens are issued with an empty signature part.',
    caughtBy: ['oauth.jwt.signed'] },
  { name: 'jwt-carries-secret', description: 'Access tokens carry the client secret in a claim.',
    caughtBy: ['oauth.jwt.no-secrets'] },
  { name: 'jwt-jti-per-grant', description: 'Every access token of one grant (the code and its refresh chain) carries the same jti.',
    caughtBy: ['oauth.jwt.jti-unique'] },
  { name: 'short-credentials', description: 'Authorization codes and refresh tokens are 6 random bytes (48 bits).',
    caughtBy: ['oauth.token.entropy'] },
  { name: 'token-cacheable', description: 'Token answers carry no Cache-Control: no-store.',
    caughtBy: ['oauth.token.no-store'] },
  { name: 'no-www-authenticate', description: 'Bearer refusals (401) carry no WWW-Authenticate header.',
    caughtBy: ['api.bearer.www-authenticate', 'api.bearer.invalid-token-error'] },
  { name: 'www-authenticate-without-error', description: 'The challenge of a 401 for an invalid token is a bare "Bearer", without error="invalid_token".',
    caughtBy: ['api.bearer.invalid-token-error'] },
  { name: 'accept-unsigned-jwt', description: 'A bearer JWT whose header names no algorithm (or none) or whose signature is empty is looked up without verification.',
    caughtBy: ['api.bearer.unsigned'] },
  { name: 'bearer-scheme-case-sensitive', description: 'Only "Bearer" with this exact capitalisation is accepted as the scheme.',
    caughtBy: ['api.bearer.scheme-case'] },
  { name: 'redirect-uri-normalised', description: 'redirect_uri is compared after normalising (scheme, port, case, trailing slash, query and fragment dropped).',
    caughtBy: ['oauth.token.redirect-uri.variants'] },
  { name: 'api-unknown-path-200', description: 'Unknown /api/v4 paths answer 200 with an empty object.',
    caughtBy: ['http.unknown-path'] },
  { name: 'api-any-method', description: '/api/v4/account answers 200 to any method, not only GET.',
    caughtBy: ['http.wrong-method'] },
  { name: 'token-via-get', description: 'A GET of /oauth2/access_token with the request fields in its query is exchanged like a POST.',
    caughtBy: ['oauth.token.no-get'] },
  { name: 'token-body-array-unwrapped', description: 'A token request whose JSON body is an array is read from its first element.',
    caughtBy: ['oauth.token.wrong-json-type'] },
  { name: 'crash-on-large-body', description: 'A token request over the body limit gets a 500 instead of 413.',
    caughtBy: ['oauth.token.oversized'] },
  { name: 'bearer-skipped-on-lists', description: 'The list endpoints serve a request without Authorization as the administrator.',
    caughtBy: ['api.bearer.every-endpoint'] },
  { name: 'api-crash-on-odd-query', description: 'A query key with unbalanced brackets (`filter]]`, `[[`) makes /api/v4 answer 500.',
    caughtBy: ['http.no-server-error'] },
  { name: 'page-unknown-client-redirects', description: 'The page with a missing or unknown client_id redirects to the configured integration\'s Redirect URI with an error.',
    caughtBy: ['oauth.page.unknown-client'] },
  { name: 'page-framable', description: 'The access-granting page carries no X-Frame-Options.',
    caughtBy: ['oauth.page.not-framable'] },
  { name: 'page-crash-on-repeated-param', description: 'A repeated or bracketed page parameter gets a 500 instead of a 400 page.',
    caughtBy: ['oauth.page.no-server-error'] },
  { name: 'consent-repeats-code', description: 'Allow hands out the previous unused code of the same integration and account again.',
    caughtBy: ['oauth.consent.fresh-code'] },
  { name: 'deny-installs', description: 'Deny installs the integration in the account, like Allow, before redirecting with the error.',
    caughtBy: ['oauth.consent.deny-installs-nothing'] },
  { name: 'name-filter-wildcards', description: 'filter[name] is matched like SQL LIKE: % and * match any run of characters, _ any one.',
    caughtBy: ['lists.filter.patterns-literal'] },
  { name: 'range-reversed-swapped', description: 'A range whose from is after its to is read with the bounds swapped.',
    caughtBy: ['lists.filter.range-reversed'] },
  { name: 'refresh-answer-without-expires-in', description: 'The refresh exchange\'s answer omits expires_in (the code exchange\'s keeps it).',
    caughtBy: ['oauth.refresh.answer'] },
  { name: 'old-secret-valid-on-refresh', description: 'After the secret key is regenerated, the previous secret is still accepted on the refresh grant.',
    caughtBy: ['oauth.secret.regenerated-refresh'] },
  // List filtering (§4.2)
  { name: 'ignore-responsible-user-filter', description: 'filter[responsible_user_id] is ignored: the list answers as if it were not sent.',
    caughtBy: ['lists.filter.oracle.common', 'lists.filter.meta.consistent', 'lists.filter.meta.union'] },
  { name: 'range-upper-bound-ignored', description: 'The [to] bound of every range filter is ignored (only [from] applies).',
    caughtBy: ['lists.filter.oracle.common', 'lists.filter.oracle.per-list', 'lists.filter.meta.consistent', 'lists.filter.meta.range-narrowing'] },
  { name: 'statuses-pipeline-only', description: 'filter[statuses] elements are matched on pipeline_id only; status_id is ignored.',
    caughtBy: ['lists.filter.oracle.per-list', 'lists.filter.meta.consistent'] },
  { name: 'bracket-array-as-single', description: 'Arrays sent as repeated `[]` keys are read as a single value (the last one), as a naive query parser does.',
    caughtBy: ['lists.filter.oracle.custom-fields', 'lists.filter.meta.union', 'lists.filter.meta.encodings'] },
  { name: 'ignore-url-custom-fields', description: 'Custom-field filters on fields of type url are ignored.',
    caughtBy: ['lists.filter.oracle.custom-fields', 'lists.filter.meta.consistent'] },
  { name: 'next-link-drops-filter', description: 'The _links.next of a list drops the filter parameters.',
    caughtBy: ['lists.filter.meta.pages-join'] },
  { name: 'accept-incomplete-statuses', description: 'A filter[statuses] element missing pipeline_id or status_id is accepted and matched on the key it has.',
    caughtBy: ['lists.filter.statuses.incomplete'] },
  { name: 'crash-on-non-numeric-range', description: 'A non-numeric range bound yields a 500.',
    caughtBy: ['lists.filter.no-server-error'] },
  { name: 'only-first-filter-applied', description: 'Only the first filter parameter of the query is applied; the others are ignored.',
    caughtBy: ['lists.filter.meta.intersection', 'lists.filter.meta.param-order'] },
  { name: 'reject-scalar-filter', description: 'The single form filter[<field>]=<value> of a multiple field is refused with 400 (only arrays are accepted).',
    caughtBy: ['lists.filter.shapes', 'lists.filter.meta.encodings'] },
  { name: 'query-finds-nothing', description: 'The query search parameter matches no record.',
    caughtBy: ['lists.query.finds-by-name'] },
  // Chat interface: signature (§5.2)
  { name: 'chat-signature-not-checked', description: 'Chat requests are accepted whatever their X-Signature, Content-MD5 and Date.',
    caughtBy: ['chat.signature.tampered-method', 'chat.signature.tampered-body-byte', 'chat.signature.tampered-content-md5', 'chat.signature.tampered-content-type', 'chat.signature.tampered-date', 'chat.signature.tampered-path', 'chat.signature.tampered-secret', 'chat.signature.checked-before-validation', 'chat.signature.upper-case-hex', 'chat.signature.date-skew'] },
  { name: 'chat-md5-not-compared', description: 'Content-MD5 is signed as sent but never compared with the MD5 of the received body.',
    caughtBy: ['chat.signature.tampered-body-byte'] },
  { name: 'chat-path-not-signed', description: 'The signature is bound to the channel, not the path: one made for another path of the channel (another endpoint, no /v2/origin/custom prefix, a trailing slash) passes.',
    caughtBy: ['chat.signature.tampered-path'] },
  { name: 'chat-query-signed', description: 'The signing string includes the query string of the path.',
    caughtBy: ['chat.signature.get-query-not-signed'] },
  { name: 'chat-date-gmt-only', description: 'A Date with a numeric zone (+0000) is refused; only "... GMT" is accepted.',
    caughtBy: ['chat.signature.valid', 'chat.signature.date-formats'] },
  { name: 'chat-extra-header-refused', description: 'A request carrying an unsigned X- header (X-Trace-Id) is refused with 403.',
    caughtBy: ['chat.signature.unsigned-header'] },
  { name: 'chat-validate-before-signature', description: 'Chat bodies are validated before the signature is checked (a bad body with a bad signature gets 400).',
    caughtBy: ['chat.signature.checked-before-validation'] },
  // Chat interface: connect, chats, messages (§4.3, §3.2)
  { name: 'chat-connect-no-scope-id', description: 'Connect answers without scope_id.',
    caughtBy: ['chat.connect.answer', 'chat.connect.optional-omitted'] },
  { name: 'chat-connect-requires-title', description: 'Connect without title is refused with 400.',
    caughtBy: ['chat.connect.optional-omitted'] },
  { name: 'chat-connect-unvalidated', description: 'Connect accepts a body without account_id or with a hook_api_version other than v1 or v2.',
    caughtBy: ['chat.connect.invalid'] },
  { name: 'chat-not-found-as-200', description: 'Every chat 404 (channel, scope, message) is answered 200 with the error body.',
    caughtBy: ['chat.connect.unknown-channel', 'chat.disconnect.unknown-channel', 'chat.react.unknown-message', 'chat.delivery-status.unknown-message', 'chat.connection.isolation'] },
  { name: 'chat-error-text-plain', description: 'Chat error bodies are sent as text/plain.',
    caughtBy: ['chat.connect.invalid', 'chat.signature.tampered-secret', 'chat.typing.invalid', 'chat.react.invalid', 'chat.delivery-status.refused', 'chat.participant.required'] },
  { name: 'chat-disconnect-noop', description: 'Disconnect answers 200 but leaves the channel connected.',
    caughtBy: ['chat.connection.lifecycle'] },
  { name: 'chat-hooks-after-disconnect', description: 'Outgoing-message hooks are still sent for a disconnected channel.',
    caughtBy: ['chat.connection.hooks-stop'] },
  { name: 'chat-integration-disconnect-ignored', description: 'Disconnecting the integration in an account leaves its chat channel connected.',
    caughtBy: ['chat.connection.integration-disconnect'] },
  { name: 'chat-scope-not-isolated', description: 'Chats and messages are keyed by channel, not by scope: one account reads and writes another account\'s chats.',
    caughtBy: ['chat.connection.isolation'] },
  { name: 'chat-create-not-idempotent', description: 'Creating a chat for an existing conversation_id makes a new chat with a new id.',
    caughtBy: ['chat.create-chat.idempotent', 'chat.create-chat.concurrent'] },
  { name: 'chat-create-race', description: 'Chat creation checks for the conversation, yields, then inserts: parallel creations make several chats.',
    caughtBy: ['chat.create-chat.concurrent'] },
  { name: 'chat-create-user-no-client-id', description: 'The user of a created chat is answered without client_id.',
    caughtBy: ['chat.create-chat.answer', 'chat.participant.answer'] },
  { name: 'chat-message-response-flat', description: 'New and edited messages answer the message fields without the new_message wrapper.',
    caughtBy: ['chat.message.answer', 'chat.message.kinds', 'chat.comment.conversations'] },
  { name: 'chat-message-lost-under-concurrency', description: 'A message is appended to its chat by read, yield, write: parallel messages overwrite each other.',
    caughtBy: ['chat.concurrency.messages'] },
  { name: 'chat-kinds-confused', description: 'History gives account users and the bot a client_id, as if they were external participants.',
    caughtBy: ['chat.message.kinds'] },
  { name: 'chat-reply-any-chat', description: 'reply_to may quote a message of another chat.',
    caughtBy: ['chat.message.reply-same-chat'] },
  { name: 'chat-forwards-unlimited', description: 'forwards.messages may hold more than one message.',
    caughtBy: ['chat.limits.forwards'] },
  { name: 'chat-external-id-unlimited', description: 'source.external_id is not limited to 40 printable characters.',
    caughtBy: ['chat.source.external-id'] },
  { name: 'chat-participant-name-optional', description: 'A participant without name is accepted.',
    caughtBy: ['chat.participant.required', 'chat.sender.required'] },
  { name: 'chat-accept-wrong-types', description: 'Numbers and booleans where the chat tables state strings (and the reverse) are coerced and accepted.',
    caughtBy: ['chat.participant.required', 'chat.sender.required', 'chat.message-event.required', 'chat.connect.invalid'] },
  { name: 'chat-optional-fields-required', description: 'Optional fields of participants, messages and posts (avatar, profile, profile_link, sticker_id, callback_data, media_duration, preview fields) are required.',
    caughtBy: ['chat.participant.optional', 'chat.message.optional', 'chat.post.optional'] },
  { name: 'chat-message-type-fields-unchecked', description: 'Message type and the fields each type requires (text, file fields, location, contact) are not checked.',
    caughtBy: ['chat.message.required'] },
  { name: 'chat-shared-post-any-type', description: 'shared_post.type other than "post" is accepted.',
    caughtBy: ['chat.shared-post.type'] },
  { name: 'chat-post-unchecked', description: 'A comment\'s post without id or url is accepted.',
    caughtBy: ['chat.post.required'] },
  { name: 'chat-embedded-unchecked', description: 'An embedded message without id or msgid is accepted without type, timestamps or sender.',
    caughtBy: ['chat.embedded.required', 'chat.embedded.by-type'] },
  { name: 'chat-edit-appends', description: 'An edit adds a new message instead of changing the edited one.',
    caughtBy: ['chat.edit.text', 'chat.model.history'] },
  { name: 'chat-edit-requires-file-fields', description: 'An edit of a file message must repeat media, file_name and file_size.',
    caughtBy: ['chat.edit.file-fields-optional'] },
  { name: 'chat-silent-ignored', description: 'payload.silent is ignored: every imported incoming message notifies the account.',
    caughtBy: ['chat.import.bulk'] },
  { name: 'chat-source-ignored', description: 'The unsorted lead always goes to the default pipeline, whatever the source.',
    caughtBy: ['chat.import.source-pipeline'] },
  { name: 'chat-comments-merged', description: 'Comments go into the private conversation of the chat instead of one conversation per post.',
    caughtBy: ['chat.comment.conversations'] },
  { name: 'chat-crash-on-odd-payload', description: 'A payload.message that is not an object yields a 500.',
    caughtBy: ['chat.message.no-server-error'] },
  // Chat interface: delivery status, history, typing, reactions (§3.3, §4.3)
  { name: 'chat-delivery-status-unvalidated', description: 'Any status_code, error_code and error are accepted by delivery status.',
    caughtBy: ['chat.delivery-status.refused', 'chat.delivery-status.in-message'] },
  { name: 'chat-delivery-status-positive-only', description: 'Delivery status -1 (error) is refused with 400.',
    caughtBy: ['chat.delivery-status.accepted', 'chat.delivery-status.error-text-optional'] },
  { name: 'chat-history-limit-unenforced', description: 'History limit above 50 is honoured instead of refused.',
    caughtBy: ['chat.history.limit'] },
  { name: 'chat-history-offset-off-by-one', description: 'History skips offset + 1 messages when offset is not 0.',
    caughtBy: ['chat.history.pages', 'chat.model.history'] },
  { name: 'chat-history-drops-file-fields', description: 'History elements leave out file_name, file_size, location and contact.',
    caughtBy: ['chat.history.fields'] },
  { name: 'chat-history-missing-404', description: 'History of a chat that does not exist answers 404 instead of 204.',
    caughtBy: ['chat.history.empty'] },
  { name: 'chat-typing-requires-duration', description: 'Typing without duration_ms is refused with 400 (no 5000 ms default).',
    caughtBy: ['chat.typing.accepted'] },
  { name: 'chat-typing-unvalidated', description: 'Typing without conversation_id or sender.id is accepted.',
    caughtBy: ['chat.typing.invalid'] },
  { name: 'chat-react-msgid-only', description: 'A reaction naming the message by its chat-interface id is answered 404; only msgid works.',
    caughtBy: ['chat.react.accepted'] },
  { name: 'chat-react-unvalidated', description: 'A reaction without message id, conversation id, user or a valid type is accepted.',
    caughtBy: ['chat.react.invalid'] },
] as const);

export type FaultName = (typeof FAULTS)[number]['name'];

const KNOWN = new Set<string>(FAULTS.map((f) => f.name));

export function isFaultName(name: string): name is FaultName {
  return KNOWN.has(name);
}

export class UnknownFaultError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(`unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
}

export class FaultSwitches {
  readonly #on = new Set<FaultName>();

  constructor(initial: readonly string[] = []) {
    this.set({ enable: initial });
  }

  isOn(name: FaultName): boolean {
    return this.#on.has(name);
  }

  enable(name: string): void {
    this.set({ enable: [name] });
  }

  disable(name: string): void {
    this.set({ disable: [name] });
  }

  /** Sorted in registry order, so answers are stable. */
  active(): string[] {
    return FAULTS.map((f) => f.name).filter((n) => this.#on.has(n));
  }

  /** All or nothing: one unknown name rejects the whole change, so a typo never leaves a half-applied set. */
  set(change: { enable?: readonly string[]; disable?: readonly string[] }): void {
    const names = [...(change.enable ?? []), ...(change.disable ?? [])];
    const unknown = names.filter((n) => !isFaultName(n));
    if (unknown.length > 0) throw new UnknownFaultError([...new Set(unknown)]);
    for (const n of change.enable ?? []) this.#on.add(n as FaultName);
    for (const n of change.disable ?? []) this.#on.delete(n as FaultName);
  }

  clear(): void {
    this.#on.clear();
  }
}
