/**
 * The fault switches of the code every area shares: body parsing (./body.ts), the connection's client errors
 * (./client-errors.ts) and the leak hook (./leak-faults.ts), each read here with `faults.isOn('<name>')`
 * (test/faults/areas.test.ts checks it). ./faults.ts assembles every area's table. Grouped by the statement they
 * break, in the spec's order.
 */
import { defineFaults } from './switches.js';

export const GENERAL_FAULTS = defineFaults([
  // Request bodies, parsed the same for every route: malformed JSON, bytes that are not UTF-8 (§4.1, §7; RFC 8259 §8.1)
  { name: 'crash-on-malformed-body', description: 'An unparseable request body yields a 500.',
    caughtBy: ['oauth.token.body-not-json', 'oauth.token.no-server-error'] },
  { name: 'crash-on-invalid-utf8', description: 'A JSON body with bytes that are not UTF-8 (inside a string) yields a 500 at the token endpoint.',
    caughtBy: ['oauth.token.invalid-utf8'] },
  // A request line and headers over the server's limit: 431, not a dropped connection (RFC 6585 §5)
  { name: 'header-overflow-reset', description: 'A request whose request line and headers exceed 16 KiB is dropped without an answer (a connection reset) instead of getting 431.',
    caughtBy: ['lists.http.long-query', 'api.bearer.odd-headers'] },
  // Credentials where the spec puts none, seen by the runner's leak scan in any rule (./leak-faults.ts; §2.2, §5.2, §7)
  { name: 'api-echoes-bearer', description: 'Account API answers echo the bearer token in an X-Access-Token header.',
    caughtBy: ['api.bearer.access-token-works', 'lists.filter.meta.consistent'] },
  { name: 'chat-signature-error-names-secret', description: 'A chat 403 for a bad signature names the channel secret the signature should have been keyed with.',
    caughtBy: ['chat.signature.tampered-body-byte', 'chat.signature.tampered-secret'] },
  { name: 'api-links-carry-token', description: 'List answers put the bearer into their _links hrefs as an access_token query parameter (a credential inside a body\'s values).',
    caughtBy: ['api.bodies.json', 'api.bodies.json-every-answer'] },
  { name: 'token-in-cookie', description: 'A successful token answer also sets the access token as a cookie (§2.2: "not in browser cookies").',
    caughtBy: ['oauth.token-response.token-type', 'oauth.refresh.rotates'] },
  // A wrong method's 405 answered with an HTML page, every other answer JSON (§0: all bodies are JSON)
  { name: 'wrong-method-html', description: 'A 405 of the token endpoint, the account or a list is an HTML page (text/html), as a front server\'s default error page.',
    caughtBy: ['api.bodies.json-every-answer'] },
  // Issue 20, lists: a 100 KB list query (§4.2)
  { name: 'header-overflow-500', description: 'A request whose request line and headers exceed 16 KiB (a 100 KB list query, a 16 KiB bearer) is answered 500 instead of 431.',
    caughtBy: ['lists.http.long-query', 'api.bearer.odd-headers', 'lists.filter.no-server-error'] },
] as const);
