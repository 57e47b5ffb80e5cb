/**
 * Robustness of the chat interface over its valid input space (§2.5–§2.11, §4.3; issue 20): each route's richest
 * valid request with every optional member left out in turn, every array emptied, every reference replaced by one
 * that names nothing, then random combinations from the seed; every destructive call repeated; every route called
 * without a body. A 5xx anywhere fails; a 2xx or a 4xx is judged by the reading of the case
 * (src/checks/chat-valid-space.ts).
 */
import {
  chatPaths, type ChatRouteName, type ChatSession, defineSpec, describeSpaceCase, editMessageBody, namedSpaceCases, routeCall, routeFixture,
  routeRequires, type RouteFixture, type RuleDraft, sampleMessage, scenarioRule, sendSpaceCase, spaceCaseArb, spaceCaseChecks, type SpaceCase, spaceFixture,
  type SpaceFixture, type SpaceRoute, spareChannel, status, step, sweepRule, VALID_SPACES, jsonObjectBody,
} from './kit.js';

/** What each route's rule says it walks, and the success code §4.3 states for it. */
const ROUTES: Record<SpaceRoute, { readonly what: string; readonly accepted: number }> = {
  message: { what: 'A new message (POST .../{scope_id}) with sender profile, source, reply_to and forwards', accepted: 200 },
  edit: { what: 'An edit (POST .../{scope_id}, edit_message) naming the message by id and msgid, with timestamps and silent', accepted: 200 },
  chats: { what: 'Create chat (POST .../{scope_id}/chats) with source and a user with avatar, profile and profile_link', accepted: 200 },
  status: { what: 'Delivery status (POST .../{scope_id}/{msgid}/delivery_status)', accepted: 200 },
  typing: { what: 'Typing (POST .../{scope_id}/typing) with duration_ms', accepted: 204 },
  react: { what: 'A reaction (POST .../{scope_id}/react) naming the chat and the message both ways, with emoji', accepted: 200 },
  history: { what: 'History (GET .../{scope_id}/chats/{conversation_id}/history) with offset and limit', accepted: 200 },
};

function validSpaceRule(route: SpaceRoute): RuleDraft {
  return sweepRule<SpaceCase, Awaited<ReturnType<typeof sendSpaceCase>>, SpaceFixture>(
    { id: `chat.valid-space.${route}`, requires: ['write'],
      title: `${ROUTES[route].what}: each optional member left out, each array emptied and each reference to nothing answers without a 5xx, as the spec reads it`,
      reading: 'Robustness over the valid space (issue 20): a 5xx fails every case. An optional member left out is accepted (status-code; a react without emoji refused is non_strict, C59); a message id §7 answers 404 for gets 404 (another 4xx non_strict); a reference the spec is silent on (an unknown quoted, forwarded or edited message, an unknown conversation for typing or a reaction), an emptied array and an unmarked member left out may be accepted or refused; an edit without timestamps refused is non_strict (rule 4 names message and the ids, the payload table leaves the timestamps unmarked). Named cases every run, then random combinations from the seed.' },
    {
      setup: (t) => spaceFixture(t),
      named: () => namedSpaceCases(VALID_SPACES[route]),
      cases: () => spaceCaseArb(VALID_SPACES[route]),
      send: (_t, c, f) => sendSpaceCase(route, f, c),
      expect: (_t, c) => spaceCaseChecks(c, ROUTES[route].accepted),
      label: describeSpaceCase,
      what: 'every valid-space case answered as the spec reads it',
    },
  );
}

/** The routes that take a body, each called with none at all. */
const BODY_ROUTES: readonly ChatRouteName[] = ['connect', 'disconnect', 'chats', 'message', 'status', 'typing', 'react'];

/** typing's members are unmarked (only duration_ms is marked optional, C56): a body-less typing accepted is non_strict. */
const UNMARKED_ONLY: readonly ChatRouteName[] = ['typing'];

function noBodyRule(route: ChatRouteName): RuleDraft {
  return sweepRule<'no body', Awaited<ReturnType<RouteFixture['session']['send']>>, RouteFixture>(
    { id: `chat.http.${route}.no-body`, requires: routeRequires(route), ...(route === 'disconnect' && { needs: ['second-channel'] }),
      title: `${route}: a correctly signed request with no body at all is refused with 400 and a JSON body`,
      reading: `§4.3 "400 when data is invalid": a body left out lacks every member the route requires (required-member: another 4xx non_strict${UNMARKED_ONLY.includes(route) ? '; typing names only unmarked members, so an acceptance is non_strict too' : ''}); a 5xx fails. Signed over the empty body (Content-MD5 of the empty string).${route === 'disconnect' ? ' On a channel of its own.' : ''}` },
    {
      setup: (t) => routeFixture(t, route),
      named: ['no body'],
      send: (_t, _c, f) => {
        const { method, path } = routeCall(route, f);
        return f.session.send({ method, path });
      },
      expect: [status(400, UNMARKED_ONLY.includes(route) ? { accepted: 'non_strict' } : {}), jsonObjectBody],
      label: () => 'no body',
      what: 'the body-less request refused',
    },
  );
}

/** A scope with one message of a client, and the message's chat-interface id. */
interface Sent {
  readonly f: RouteFixture;
  readonly id: string;
}

async function sentMessage(t: Parameters<typeof routeFixture>[0]): Promise<Sent> {
  const f = await routeFixture(t, 'message');
  const sent = await f.session.mustSend(f.session.payload(f.conversationId, f.client));
  return { f, id: sent.id };
}

const react = (x: Sent, type: 'react' | 'unreact') => x.f.session.send({ method: 'POST', path: chatPaths.react(x.f.scopeId), json: { conversation_id: x.f.conversationId, msgid: x.f.msgid, user: { id: x.f.client.id }, type, emoji: '👍' } });
const deliveryStatus = (x: Sent, code: number) => x.f.session.send({ method: 'POST', path: chatPaths.deliveryStatus(x.f.scopeId, x.id), json: { status_code: code } });
const EDIT_TEXT = 'edited once, sent twice';
const edit = (x: Sent) => {
  const ms = x.f.session.now().getTime();
  return x.f.session.postEvent(editMessageBody({ conversation_id: x.f.conversationId, msgid: x.f.msgid, message: sampleMessage('text', EDIT_TEXT), timestamp: Math.floor(ms / 1000), msec_timestamp: ms }));
};

/** A repeat the state table does not show (a second disconnect, an unreact of no reaction): 200 stated, a refusal non_strict. */
const repeatAnswer = status(200, { refused: 'non_strict' });

export default defineSpec({
  section: '4.3',
  title: 'Robustness over the valid input space of the chat interface',
  level: 'must',
  rules: [
    ...(Object.keys(ROUTES) as SpaceRoute[]).map(validSpaceRule),
    ...BODY_ROUTES.map(noBodyRule),
    scenarioRule<ChatSession>(
      { id: 'chat.repeated.disconnect', section: '3.2', requires: ['write'], needs: ['second-channel'],
        title: 'Disconnect of a channel never connected and disconnect twice answer without a 5xx, and connect then works',
        reading: '§4.3 disconnect answers 200 with no body; §3.2 shows no transition from not connected, so a refusal of a disconnect that finds nothing connected is non_strict; a 5xx fails. The channel must connect again afterwards (§3.2), and take a message. On a channel of its own.' },
      {
        setup: (t) => spareChannel(t),
        steps: [
          step<ChatSession>('disconnect before any connect', (_t, s) => s.disconnect(), [repeatAnswer]),
          step<ChatSession>('connect', (_t, s) => s.connect(), [status(200)]),
          step<ChatSession>('disconnect', (_t, s) => s.disconnect(), [status(200)]),
          step<ChatSession>('disconnect again', (_t, s) => s.disconnect(), [repeatAnswer]),
          step<ChatSession>('connect again', (_t, s) => s.connect(), [status(200)]),
          step<ChatSession>('a message afterwards', (_t, s) => s.sendMessage(s.payload(s.conversationId(), s.client())), [status(200)]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.repeated.reaction', requires: ['write'],
        title: 'The same reaction twice, and unreact twice, answer without a 5xx; a reaction afterwards is accepted',
        reading: '§4.3 reaction: 200 for a message that exists. The same react again is a valid request (200). An unreact that finds no reaction left changes nothing the spec describes: 200 stated, a refusal non_strict. A 5xx fails.' },
      {
        setup: sentMessage,
        steps: [
          step<Sent>('react', (_t, x) => react(x, 'react'), [status(200)]),
          step<Sent>('the same react again', (_t, x) => react(x, 'react'), [status(200)]),
          step<Sent>('unreact', (_t, x) => react(x, 'unreact'), [status(200)]),
          step<Sent>('unreact again', (_t, x) => react(x, 'unreact'), [repeatAnswer]),
          step<Sent>('react afterwards', (_t, x) => react(x, 'react'), [status(200)]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.repeated.delivery-status', section: '3.3', requires: ['write'],
        title: 'The same delivery status sent twice (delivered, then read) answers without a 5xx',
        reading: '§4.3 delivery status: 200 with no body for a message that exists. The same status again is no transition §3.3 shows ("not shown"): 200 stated, a refusal non_strict. A 5xx fails.' },
      {
        setup: sentMessage,
        steps: [
          step<Sent>('delivered', (_t, x) => deliveryStatus(x, 1), [status(200)]),
          step<Sent>('delivered again', (_t, x) => deliveryStatus(x, 1), [repeatAnswer]),
          step<Sent>('read', (_t, x) => deliveryStatus(x, 2), [status(200)]),
          step<Sent>('read again', (_t, x) => deliveryStatus(x, 2), [repeatAnswer]),
        ],
      },
    ),
    scenarioRule<Sent>(
      { id: 'chat.repeated.edit', requires: ['write'],
        title: 'The same edit sent twice is accepted both times',
        reading: '§4.3 rule 4: an edit of a message that exists carries message and the identifying ids; sent again with the same text it is still a valid edit (200). A 5xx fails.' },
      {
        setup: sentMessage,
        steps: [
          step<Sent>('edit', (_t, x) => edit(x), [status(200)]),
          step<Sent>('the same edit again', (_t, x) => edit(x), [status(200)]),
        ],
      },
    ),
  ],
});
