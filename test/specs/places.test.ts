/**
 * The places table (issue 32): every statement reaches every place it governs, or says why not. Which places a rule
 * reaches is traced from a quick run against the emulator, every request attributed to its rule (the run the tests
 * share: test/traced-run.ts); the committed reach.json (docs/requirements.md reads it) must agree with that run on
 * every pair.
 */
import { describe, expect, it } from 'vitest';
import { GOVERNS, REQUIREMENTS } from '../../specs/requirements/index.js';
import { committedReach, pairReached, PLACE_KINDS, placePairs, type PlacePair } from '../../src/docs/places.js';
import { placesOf } from '../../src/protocol/places.js';
import { sharedTrace } from '../traced-run.js';

const BASE = 'http://127.0.0.1:1';
const answer = (status: number, text = '') => ({ status, headers: {}, text, durationMs: 1 });
const show = (p: PlacePair) => `${p.statement} @ ${p.place}`;

describe('places of one exchange', () => {
  it('tells the grant of a token answer, and only of a 200', () => {
    const refresh = { method: 'POST', url: `${BASE}/oauth2/access_token`, body: JSON.stringify({ grant_type: 'refresh_token' }) };
    expect(placesOf(refresh, answer(200))).toEqual(['token 2xx', 'refresh grant 200']);
    expect(placesOf({ ...refresh, body: 'grant_type=authorization_code&code=x' }, answer(200))).toEqual(['token 2xx', 'code grant 200']);
    expect(placesOf(refresh, answer(400))).toEqual(['token 4xx']);
  });

  it('tells a request to a bearer endpoint from one sent with another method, and a later page of a list', () => {
    expect(placesOf({ method: 'GET', url: `${BASE}/api/v4/leads?limit=1`, headers: { authorization: 'Bearer abc' } }, answer(401))).toEqual(['list leads 4xx', 'bearer at list leads']);
    expect(placesOf({ method: 'DELETE', url: `${BASE}/api/v4/leads`, headers: { authorization: 'Bearer abc' } }, answer(405))).toEqual(['list leads 405']);
    // Whatever credential it carries, none included: the place is the endpoint a credential is checked at (issue 39).
    expect(placesOf({ method: 'GET', url: `${BASE}/api/v4/account` }, answer(401))).toEqual(['account 4xx', 'bearer at account']);
    // A later page of a list is a place of its own.
    expect(placesOf({ method: 'GET', url: `${BASE}/api/v4/contacts?limit=1&page=2`, headers: { authorization: 'Basic abc' } }, answer(401))).toEqual(['list contacts 4xx', 'bearer at list contacts', 'bearer at list contacts page 2']);
    // An account's own address with a path ({base_url} of another account: the emulator's /_accounts/<sub>).
    expect(placesOf({ method: 'GET', url: `${BASE}/_accounts/side/api/v4/customers?limit=1`, headers: { authorization: 'Bearer abc' } }, answer(401))).toEqual(['list customers 4xx', 'bearer at list customers']);
  });

  it('tells chat routes apart by their path shape, and history pages by offset and count', () => {
    const history = (q: string) => ({ method: 'GET', url: `${BASE}/v2/origin/custom/scope-1/chats/conv-1/history?${q}` });
    const page = (n: number) => answer(200, JSON.stringify({ messages: Array.from({ length: n }, () => ({})) }));
    expect(placesOf(history('limit=50'), page(50))).toContain('history first page');
    expect(placesOf(history('offset=50&limit=50'), page(50))).toContain('history middle page');
    expect(placesOf(history('offset=100&limit=50'), page(2))).toContain('history last page');
    expect(placesOf({ method: 'POST', url: `${BASE}/v2/origin/custom/chan/connect` }, answer(403))).toEqual(['chat connect', 'chat connect 4xx']);
    expect(placesOf({ method: 'POST', url: `${BASE}/v2/origin/custom/scope-1` }, answer(200))).toEqual(['chat message', 'chat message 2xx']);
    // A chat route's wrong-method answer is a place of its own, as an endpoint's is.
    expect(placesOf({ method: 'PUT', url: `${BASE}/v2/origin/custom/scope-1/chats/conv-1/history` }, answer(405))).toEqual(['chat history', 'chat history 405']);
    expect(placesOf({ method: 'GET', url: `${BASE}/_control/clock` }, answer(200))).toEqual([]);
  });

  it('tells a page past the first 50 messages, and the handles a chat request names a chat or message by', () => {
    const history = (q: string) => ({ method: 'GET', url: `${BASE}/v2/origin/custom/scope-1/chats/conv-1/history?${q}` });
    const page = (n: number) => answer(200, JSON.stringify({ messages: Array.from({ length: n }, () => ({})) }));
    expect(placesOf(history('offset=50&limit=50'), page(2))).toContain('history page past 50');
    expect(placesOf(history('offset=40&limit=20'), page(12))).not.toContain('history page past 50');
    expect(placesOf(history('limit=50'), page(50))).toContain('handle history path');
    const message = (payload: Record<string, unknown>, event = 'new_message') => ({ method: 'POST', url: `${BASE}/v2/origin/custom/scope-1`, body: Buffer.from(JSON.stringify({ event_type: event, payload })) });
    expect(placesOf(message({ reply_to: { message: { id: 'm' } } }), answer(400))).toContain('handle reply_to');
    expect(placesOf(message({ forwards: { messages: [{ msgid: 'm' }], conversation_id: 'c', conversation_ref_id: 'r' } }), answer(400)))
      .toEqual(expect.arrayContaining(['handle forwards', 'handle forwards.conversation_id', 'handle forwards.conversation_ref_id']));
    // A forward given by its fields names no message: only its source chat is a handle.
    expect(placesOf(message({ forwards: { messages: [{ type: 'text', text: 't' }] } }), answer(200))).not.toContain('handle forwards');
    expect(placesOf(message({ conversation_ref_id: 'r' }), answer(400))).toContain('handle conversation_ref_id');
    expect(placesOf(message({ msgid: 'm' }, 'edit_message'), answer(404))).toContain('handle edit');
    expect(placesOf(message({ message: { type: 'text', text: 't', post: { id: 'p', url: 'u' } } }), answer(200))).toContain('handle comment');
    const react = (body: Record<string, unknown>) => ({ method: 'POST', url: `${BASE}/v2/origin/custom/scope-1/react`, body: Buffer.from(JSON.stringify(body)) });
    expect(placesOf(react({ conversation_ref_id: 'r', id: 'm' }), answer(404))).toEqual(expect.arrayContaining(['handle react message', 'handle react conversation_ref_id']));
    expect(placesOf({ method: 'POST', url: `${BASE}/v2/origin/custom/scope-1/m1/delivery_status` }, answer(404))).toContain('handle delivery-status path');
  });
});

describe('places table', () => {
  it('names statements of the inventory, each under one kind, and places of the protocol', () => {
    const ids = new Set(REQUIREMENTS.map((r) => r.id));
    const named = GOVERNS.flatMap((g) => g.statements);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
    expect(named.filter((id, i) => named.indexOf(id) !== i)).toEqual([]);
    const reasons = GOVERNS.flatMap((g) => Object.keys(g.unreached ?? {}).filter((p) => !(PLACE_KINDS[g.kind].places as readonly string[]).includes(p)));
    expect(reasons).toEqual([]);
  });

  // The shared traced quick run: about a minute on two cores when this file is the first to need it.
  it('reaches every place a statement governs with a rule that checks it, or says why not; the committed reach agrees', { timeout: 240_000 }, async () => {
    const { places, cases } = await sharedTrace();
    const pairs = placePairs({ places, cases });
    // Reached by every case of the statement (issue 39), not by any one of its rules.
    expect(pairs.filter((p) => !pairReached(p) && p.unreached === undefined).map((p) => `${show(p)}${p.missing.length > 0 ? `, missed by ${p.missing.join(', ')}` : ''}`)).toEqual([]);
    // A reason for a place that is reached after all is stale.
    expect(pairs.filter((p) => pairReached(p) && p.unreached !== undefined).map(show)).toEqual([]);
    const committed = new Map(placePairs(committedReach()).map((p) => [show(p), pairReached(p)]));
    expect(pairs.filter((p) => committed.get(show(p)) !== pairReached(p)).map((p) => `${show(p)}: run \`npm run docs\``)).toEqual([]);
  });
});
