/**
 * The HTTP the service relies on without stating it, per endpoint: unknown paths 404, wrong methods 405, malformed JSON
 * 400, oversized bodies 413 (or 400), never a 5xx, UTF-8 values that round-trip. Each statement sits in the section of
 * its endpoint (§4.1 token endpoint and page, §4.2 lists, §4.3 chat, §5.1 account API).
 */
import { requirements, type Requirement } from './model.js';

/** The chat routes of §4.3; `body` says whether the route takes a JSON body. */
const CHAT_ROUTES = [
  { slug: 'connect', route: 'POST .../{channel_id}/connect', body: true, other: 'GET' },
  { slug: 'disconnect', route: 'DELETE .../{channel_id}/disconnect', body: true, other: 'POST' },
  { slug: 'chats', route: 'POST .../{scope_id}/chats', body: true, other: 'PUT' },
  { slug: 'message', route: 'POST .../{scope_id}', body: true, other: 'GET' },
  { slug: 'status', route: 'POST .../{scope_id}/{msgid}/delivery_status', body: true, other: 'GET' },
  { slug: 'history', route: 'GET .../{scope_id}/chats/{conversation_id}/history', body: false, other: 'POST' },
  { slug: 'typing', route: 'POST .../{scope_id}/typing', body: true, other: 'GET' },
  { slug: 'react', route: 'POST .../{scope_id}/react', body: true, other: 'DELETE' },
] as const;

/** The valid-space rules of each route (specs/4.3-valid-space.ts); an edit goes to the message route. */
const VALID_SPACE_RULES: Partial<Record<(typeof CHAT_ROUTES)[number]['slug'], [string, ...string[]]>> = {
  chats: ['chat.valid-space.chats'],
  message: ['chat.valid-space.message', 'chat.valid-space.edit'],
  status: ['chat.valid-space.status'],
  history: ['chat.valid-space.history'],
  typing: ['chat.valid-space.typing'],
  react: ['chat.valid-space.react'],
};

/** Destructive calls repeated (issue 20): each a statement of its own section. */
function repeatedCallStatements(): Requirement[] {
  return [
    {
      id: 'REQ-3.2-http-disconnect-repeated', section: '3.2', source: 'http', level: 'should',
      statement: 'A disconnect that finds nothing connected (never connected, or disconnected already) causes no 5xx, and the channel connects again afterwards.',
      observes: 'disconnect before any connect, connect, disconnect twice, connect again and a message: no 5xx; 200 stated, a refusal of a repeat recorded (R2-C18)',
      needs: ['control'],
      reading: { kind: 'robustness', also: ['status-code'], review: 'R2-C18', informational: 'a repeated disconnect refused (§3.2 shows no transition from not connected)' },
      rules: ['chat.repeated.disconnect'],
    },
    {
      id: 'REQ-3.3-http-delivery-status-repeated', section: '3.3', source: 'http', level: 'should',
      statement: 'The same delivery status sent twice causes no 5xx.',
      observes: 'delivered twice, then read twice, on one message: 200 each time (a refusal of a repeat recorded, R2-C18), never 5xx',
      needs: ['nothing'],
      reading: { kind: 'robustness', also: ['status-code'], review: 'R2-C18', informational: 'a repeated status refused ("Transitions between delivery statuses: not shown")' },
      rules: ['chat.repeated.delivery-status'],
    },
    {
      id: 'REQ-4.3-http-react-repeated', section: '4.3', source: 'http', level: 'should',
      statement: 'The same reaction sent twice, and an unreact sent twice, cause no 5xx.',
      observes: 'react, react again, unreact, unreact again, react: 200 each time (the second unreact refused is recorded, R2-C18), never 5xx',
      needs: ['nothing'],
      reading: { kind: 'robustness', also: ['status-code'], review: 'R2-C18', informational: 'an unreact of no reaction refused' },
      rules: ['chat.repeated.reaction'],
    },
    {
      id: 'REQ-4.3-http-edit-repeated', section: '4.3', source: 'http', level: 'should',
      statement: 'The same edit sent twice is a valid edit both times.',
      observes: 'one edit_message sent twice with the same text: 200 both times, never 5xx',
      needs: ['nothing'],
      reading: { kind: 'robustness', also: ['status-code'] },
      rules: ['chat.repeated.edit'],
    },
  ];
}

function chatRouteStatements(): Requirement[] {
  const out: Requirement[] = [];
  for (const r of CHAT_ROUTES) {
    if (r.slug === 'message') {
      out.push({
        id: 'REQ-4.3-http-message-no-5xx', section: '4.3', source: 'http', level: 'should',
        statement: `${r.route}: no correctly signed body causes a 5xx.`,
        observes: 'arbitrary JSON values and odd message events answer 2xx or 4xx',
        needs: ['nothing'],
        reading: { kind: 'robustness' },
        rules: ['chat.message.no-server-error'],
      });
    } else {
      out.push({
        id: `REQ-4.3-http-${r.slug}-no-5xx`, section: '4.3', source: 'http', level: 'should',
        statement: `${r.route}: no correctly signed ${r.body ? 'body' : 'query'} causes a 5xx.`,
        observes: `arbitrary ${r.body ? 'JSON bodies' : 'offset and limit values'}, correctly signed, answer 2xx or 4xx`,
        needs: ['nothing'],
        reading: { kind: 'robustness' },
        rules: [`chat.http.${r.slug}.no-server-error`],
      });
    }
    if (r.body) {
      out.push({
        id: `REQ-4.3-http-${r.slug}-malformed-json`, section: '4.3', source: 'http', level: 'must',
        statement: `${r.route}: a body that is not JSON is invalid data, 400.`,
        observes: 'a correctly signed body like {"a": or <xml/> answers 400 with a JSON body, never 5xx',
        needs: ['nothing'],
        reading: { kind: 'status-code' },
        rules: [`chat.http.${r.slug}.malformed-json`],
      });
    }
    const space = VALID_SPACE_RULES[r.slug];
    if (space) {
      out.push({
        id: `REQ-4.3-http-${r.slug}-valid-space`, section: '4.3', source: 'http', level: 'should',
        statement: `${r.route}: no valid request causes a 5xx, whichever optional member is left out, array emptied or reference names nothing.`,
        observes: 'the richest valid request with each optional member absent, each array and all-optional object emptied, each message, chat or conversation id replaced by one naming nothing, then random combinations: never 5xx; an absent optional member accepted, a stated 404 answered 404',
        needs: ['nothing'],
        reading: { kind: 'robustness', also: ['status-code'] },
        rules: space,
      });
    }
    if (r.body) {
      out.push({
        id: `REQ-4.3-http-${r.slug}-no-body`, section: '4.3', source: 'http', level: 'must',
        statement: `${r.route}: a request with no body at all is invalid data, 400.`,
        observes: 'a correctly signed request without a body (Content-MD5 of the empty string) answers 400 with a JSON body, never 5xx',
        needs: r.slug === 'disconnect' ? ['control'] : ['nothing'],
        reading: { kind: 'required-member', ...(r.slug === 'typing' && { also: ['unmarked-member'], non_strict: 'another 4xx, or an acceptance (typing\'s members are unmarked)' }) },
        rules: [`chat.http.${r.slug}.no-body`],
      });
    }
    out.push({
      id: `REQ-4.3-http-${r.slug}-wrong-method`, section: '4.3', source: 'http', level: 'should',
      statement: `${r.route} with another method (e.g. ${r.other}) answers 405 with an Allow header (RFC 9110 §15.5.6).`,
      observes: `a correctly signed ${r.other} to the route answers 405 (404 non_strict), never 2xx or 5xx`,
      needs: ['nothing'],
      reading: {
        kind: 'rfc-unstated', also: ['stated-behaviour'], review: 'K38, R2-A9',
        passed: '405, with or without Allow',
        non_strict: 'another 4xx (404)',
        failed: 'a 2xx: §4.3 names one method per route, so another method served is the opposite of what it states; a 5xx, a reset or a hang',
      },
      rules: [`chat.http.${r.slug}.wrong-method`],
    });
  }
  return out;
}

export const HTTP = requirements([
  // ---- §4.1 token endpoint and access-granting page
  {
    id: 'REQ-4.1-http-token-no-5xx', section: '4.1', source: 'http', level: 'should',
    statement: 'No body sent to the token endpoint causes a 5xx.',
    observes: 'arbitrary JSON, form and malformed bodies answer 2xx or 4xx',
    needs: ['nothing'],
    reading: { kind: 'robustness' },
    rules: ['oauth.token.no-server-error', 'http.no-server-error'],
    partial: 'form-encoded bodies never carry refresh_token; JSON bodies of the refresh grant\'s shape are sent by http.no-server-error',
    theme: 'refresh-grant',
  },
  {
    id: 'REQ-4.1-http-token-malformed-json', section: '4.1', source: 'http', level: 'must',
    statement: 'A token request body that is not JSON is invalid data: 400.',
    observes: '400 with a JSON body for texts that do not parse',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['oauth.token.body-not-json', 'oauth.token.wrong-json-type'],
  },
  {
    id: 'REQ-4.1-http-token-wrong-method', section: '4.1', source: 'http', level: 'should',
    statement: 'The token endpoint with another method than POST answers 405 with Allow: POST.',
    observes: 'GET and PUT /oauth2/access_token answer 405 (404 non_strict), never 2xx or 5xx',
    needs: ['nothing'],
    reading: {
      kind: 'rfc-unstated', review: 'K38',
      passed: '405 (with or without Allow)',
      non_strict: 'another 4xx',
    },
    rules: ['http.wrong-method', 'oauth.token.no-get'],
  },
  {
    id: 'REQ-4.1-http-token-oversized', section: '4.1', source: 'http', level: 'should',
    statement: 'An oversized token request body is answered, refused (413, 400) or read, never with a 5xx.',
    observes: 'a 2 MB JSON body is answered without a breakage (413, 400, or read), and the endpoint answers normally afterwards',
    needs: ['nothing'],
    reading: { kind: 'robustness', review: 'K36' },
    rules: ['oauth.token.oversized'],
  },
  {
    id: 'REQ-4.1-http-token-content-type', section: '4.1', source: 'http', level: 'should',
    statement: 'A token request with another media type (text/plain, none) is refused with 400 or 415, never a 5xx.',
    observes: 'the answer to a valid code exchange (fresh code) sent as text/plain, application/octet-stream and without Content-Type: no token, 400 or 415',
    needs: ['person'],
    reading: {
      kind: 'rfc-unstated',
      passed: '400 or 415',
      non_strict: 'another 4xx, or accepted',
    },
    rules: ['oauth.token.content-type-other'],
  },
  {
    id: 'REQ-4.1-http-page-no-5xx', section: '4.1', source: 'http', level: 'should',
    statement: 'No query of the access-granting page causes a 5xx.',
    observes: 'odd client_id, mode and state values (huge, invalid percent-encoding, repeated) answer 2xx or 4xx',
    needs: ['nothing'],
    reading: { kind: 'robustness' },
    rules: ['oauth.page.no-server-error'],
  },
  {
    id: 'REQ-4.1-http-page-unknown-mode', section: '4.1', source: 'table', level: 'info',
    statement: 'mode is popup or post_message; what another mode does is not stated.',
    observes: 'the page\'s behaviour for mode=other after Allow',
    needs: ['browser'],
    reading: { kind: 'open-point' },
    rules: ['oauth.page.unknown-mode'],
  },

  // ---- §4.2 lists
  {
    id: 'REQ-4.2-http-unknown-list', section: '4.2', source: 'http', level: 'should',
    statement: 'A list path that does not exist answers 404.',
    observes: 'GET /api/v4/deals (not one of the four) with a valid bearer answers 404',
    needs: ['nothing'],
    reading: {
      kind: 'rfc-unstated',
      passed: '404',
      non_strict: 'another 4xx, or a 2xx',
    },
    rules: ['http.unknown-path'],
  },
  {
    id: 'REQ-4.2-http-wrong-method', section: '4.2', source: 'http', level: 'should',
    statement: 'A list endpoint with a method it does not support answers 405.',
    observes: 'DELETE /api/v4/leads answers 405 (never 2xx or 5xx)',
    needs: ['nothing'],
    reading: {
      kind: 'rfc-unstated', review: 'K38',
      passed: '405 (with or without Allow)',
      non_strict: 'another 4xx',
    },
    rules: ['http.wrong-method'],
  },
  {
    id: 'REQ-4.2-http-long-query', section: '4.2', source: 'http', level: 'should',
    statement: 'An over-long query string is answered, refused (414, 400) or served, never with a 5xx.',
    observes: 'a filter query of 100 KB is answered without a breakage: refused (414, 400, 431) or served',
    needs: ['nothing'],
    reading: { kind: 'robustness', review: 'K36' },
    rules: ['lists.http.long-query'],
  },

  // ---- §4.3 chat, per route and overall
  ...chatRouteStatements(),
  ...repeatedCallStatements(),
  {
    id: 'REQ-4.3-http-unknown-path', section: '4.3', source: 'http', level: 'should',
    statement: 'A chat path that does not exist answers 404 (when correctly signed).',
    observes: 'a correctly signed POST to /v2/origin/custom/{scope_id}/no-such-endpoint answers 404',
    needs: ['nothing'],
    reading: {
      kind: 'rfc-unstated',
      passed: '404',
      non_strict: 'another 4xx, or a 2xx',
    },
    rules: ['chat.http.unknown-path'],
  },
  {
    id: 'REQ-4.3-http-oversized', section: '4.3', source: 'http', level: 'should',
    statement: 'An oversized chat body is answered, refused (413, 400) or taken, never with a 5xx.',
    observes: 'a correctly signed 10 MB message is answered without a breakage (refused or stored), and a normal message is taken afterwards',
    needs: ['nothing'],
    reading: { kind: 'robustness', review: 'K36' },
    rules: ['chat.http.oversized'],
  },
  {
    id: 'REQ-4.3-http-utf8-text', section: '4.3', source: 'http', level: 'must',
    statement: 'UTF-8 round-trips: a message text with non-ASCII characters comes back unchanged.',
    observes: 'Cyrillic, accents, emoji (astral plane) and combining marks, signed over the UTF-8 bytes, answer 200 and appear byte-identical in the history',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour', review: 'K39',
      passed: 'the text as sent',
      non_strict: 'the text NFC-normalised',
      failed: 'other characters than sent (mojibake, replacement characters)',
    },
    rules: ['chat.http.utf8-text'],
  },
  {
    id: 'REQ-4.3-http-utf8-names', section: '4.3', source: 'http', level: 'must',
    statement: 'UTF-8 round-trips in participant names: the create-chat answer and the history carry the name sent.',
    observes: 'a user named in Cyrillic and emoji comes back with the same name',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour', review: 'K39',
      passed: 'the name as sent',
      non_strict: 'the name NFC-normalised',
      failed: 'other characters than sent',
    },
    rules: ['chat.http.utf8-names'],
  },

  // ---- §5.1 account API
  {
    id: 'REQ-5.1-http-unknown-path', section: '5.1', source: 'http', level: 'should',
    statement: 'An /api/v4 path that does not exist answers 404.',
    observes: 'GET /api/v4/no-such-resource with a valid bearer answers 404',
    needs: ['person'],
    reading: {
      kind: 'rfc-unstated', review: 'K40',
      passed: '404 for a path that does not exist',
      non_strict: 'another 4xx',
      informational: 'another version segment (/api/v5/account) answered: it need not exist',
    },
    rules: ['http.unknown-path'],
  },
  {
    id: 'REQ-5.1-http-wrong-method', section: '5.1', source: 'http', level: 'should',
    statement: '/api/v4/account with a method it does not support answers 405.',
    observes: 'DELETE /api/v4/account with a valid bearer answers 405 (never 2xx or 5xx)',
    needs: ['person'],
    reading: {
      kind: 'rfc-unstated', review: 'K38',
      passed: '405 (with or without Allow)',
      non_strict: 'another 4xx',
    },
    rules: ['http.wrong-method'],
  },
  {
    id: 'REQ-5.1-http-odd-authorization', section: '5.1', source: 'http', level: 'should',
    statement: 'No Authorization header value causes a 5xx.',
    observes: 'huge (16 KB), non-ASCII and repeated Authorization headers answer 401 (or 400, 431)',
    needs: ['nothing'],
    reading: { kind: 'robustness' },
    rules: ['api.bearer.malformed', 'api.bearer.odd-headers'],
    partial: 'repeated Authorization headers are not sent: the kit\'s request model holds one value per header',
    theme: 'http',
  },
  {
    id: 'REQ-0-json-utf8-bytes', section: '0', source: 'http', level: 'should',
    statement: 'JSON text exchanged between systems is UTF-8 (RFC 8259 §8.1): a body with bytes that are not UTF-8 inside a string breaks nothing.',
    observes: 'the token endpoint and every chat route with a body answer such a body 4xx or 2xx, never 5xx; the token endpoint, with the bytes in an extra member or in code, client_id, client_secret or redirect_uri, refuses it (4xx) and issues no token',
    needs: ['nothing'],
    reading: {
      kind: 'robustness', also: ['security'], review: 'R2-A10',
      failed: 'a 5xx, a reset or a hang; at the token endpoint, any 2xx (a success for credentials nobody issued)',
    },
    rules: ['oauth.token.invalid-utf8', 'chat.http.connect.invalid-utf8', 'chat.http.disconnect.invalid-utf8', 'chat.http.chats.invalid-utf8', 'chat.http.message.invalid-utf8', 'chat.http.status.invalid-utf8', 'chat.http.typing.invalid-utf8', 'chat.http.react.invalid-utf8'],
  },
]);
