/**
 * What the rules of §5.2 share: fixtures, case tables and the makers of rule families.
 */
import {
  CHAT_ROUTES, SIGNATURE_SPOILS, type SkewWindows, type ChatCall, type Check, chatBodyIsJson, chatPaths, editMessageBody, newMessageBody, type ChatRouteName, type ChatSession, chatSession, connectBody, contentMd5, EMPTY_MD5, type HttpResponse, jsonContentType, jsonContentTypeIfRefused, otherChannelSecret, type OtherSecret, propertyRule, refusalPreferred, rfc2822Date, routeCall, routeFixture, type RouteFixture, routeRequires, type RuleContext, type RuleDraft, type SendOptions, type SignatureSpoil, SPOIL_WHAT, spoilOptions, spoilsFor, status, sweepRule, type Tamper, tamperBody, type TamperPart, TAMPERS,
} from '../kit.js';

export const SIGNED = ['5.2/Content-Type', '5.2/Date', '5.2/Content-MD5', '5.2/X-Signature'];

/** The base request: connect (idempotent, always allowed), with a title so the body has letters to change. */
export function connectCall(s: ChatSession): ChatCall {
  return { method: 'POST', path: chatPaths.connect(s.channel.channelId), json: s.connectBody({ title: `Signed channel ${s.t.runId}` }) };
}

/** How one tamper is applied: what the signature covers versus what goes on the wire. */
export function tamperOptions(s: ChatSession, call: ChatCall, tamper: Tamper): SendOptions {
  const body = JSON.stringify(call.json);
  switch (tamper.part) {
    case 'method': return { sign: { method: tamper.signedAs } };
    case 'body-byte': return { wire: { body: tamperBody(body, tamper.position, tamper.letter) } };
    case 'content-md5': {
      const real = contentMd5(body);
      const md5 = tamper.variant === 'md5-of-other-body' ? contentMd5(`${body} `) : tamper.variant === 'empty-body-md5' ? EMPTY_MD5 : `${real.slice(0, -1)}${real.endsWith('0') ? '1' : '0'}`;
      return { wire: { md5 } };
    }
    case 'content-type': return { wire: { contentType: tamper.sent } };
    case 'date': return { wire: { date: rfc2822Date(new Date(s.now().getTime() + tamper.shiftSeconds * 1000)) } };
    case 'path': {
      const path = call.path;
      const signedPath = tamper.signedPath === 'other-endpoint' ? chatPaths.disconnect(s.channel.channelId)
        : tamper.signedPath === 'other-channel' ? chatPaths.connect(`${s.channel.channelId.slice(0, -4)}0000`)
        : tamper.signedPath === 'prefix-dropped' ? path.replace('/v2/origin/custom', '')
        : `${path}/`;
      return { sign: { path: signedPath === path ? `${path}x` : signedPath } };
    }
    case 'secret': {
      const secret = s.channel.secret;
      return { secret: tamper.variant === 'other-secret' ? `${secret.split('').reverse().join('')}x` : tamper.variant === 'empty-secret' ? '' : `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}` };
    }
  }
}

export const WHAT: Record<TamperPart, string> = {
  method: 'signed with another method than sent',
  'body-byte': 'with one body byte changed after signing (Content-MD5 and X-Signature of the original)',
  'content-md5': 'with a Content-MD5 that is not the MD5 of the body',
  'content-type': 'with another Content-Type than signed',
  date: 'with another Date than signed',
  path: 'signed for another path (another endpoint, another channel, no /v2/origin/custom prefix, a trailing slash)',
  secret: 'signed with a wrong secret',
};

export const READINGS: Partial<Record<TamperPart, string>> = {
  'body-byte': 'The MD5 is over the received bytes (docs/field-notes.md); a letter inside a string value is changed so the body stays valid JSON and only the hash can catch it.',
  path: 'The signed path includes /v2/origin/custom/... and excludes the query string (docs/field-notes.md).',
  date: 'The sent Date is within the accepted window, so only the signature can catch it.',
};

export function tamperRule(part: TamperPart): RuleDraft {
  const extra = READINGS[part];
  return propertyRule<Tamper>(
    { id: `chat.signature.tampered-${part}`, requires: [], title: `A chat request ${WHAT[part]} is refused with 403 and a JSON body`,
      reading: `§5.2: an incorrect signature yields 403; §4.3: error responses carry application/json.${extra ? ` ${extra}` : ''}`, covers: SIGNED },
    {
      cases: () => TAMPERS[part],
      send: async (t, tamper) => {
        const s = await chatSession(t);
        const call = connectCall(s);
        return s.send(call, tamperOptions(s, call, tamper));
      },
      expect: [status(403), jsonContentType],
    },
  );
}

/** Whether a Date `skewS` seconds from the target clock is accepted. */
export async function acceptsSkew(s: ChatSession, skewS: number): Promise<boolean> {
  const res = await s.send(connectCall(s), { skewMs: skewS * 1000 });
  return res.status === 200;
}

/** Largest accepted skew in one direction, by bisection over [0, 86400] s (17 probes at most). */
export async function window(s: ChatSession, sign: 1 | -1): Promise<string> {
  if (await acceptsSkew(s, sign * 86_400)) return 'accepted even a day off';
  let lo = 0;
  let hi = 86_400;
  while (hi - lo > 5) {
    const mid = Math.floor((lo + hi) / 2);
    if (await acceptsSkew(s, sign * mid)) lo = mid;
    else hi = mid;
  }
  return `accepted up to about ${lo} s, refused from ${hi} s`;
}

export const ROUTE_TITLE: Record<ChatRouteName, string> = {
  connect: 'connect (POST .../{channel_id}/connect)',
  disconnect: 'disconnect (DELETE .../{channel_id}/disconnect)',
  chats: 'create chat (POST .../{scope_id}/chats)',
  message: 'send a message (POST .../{scope_id})',
  status: 'delivery status (POST .../{scope_id}/{msgid}/delivery_status)',
  history: 'history (GET .../{scope_id}/chats/{conversation_id}/history)',
  typing: 'typing (POST .../{scope_id}/typing)',
  react: 'reaction (POST .../{scope_id}/react)',
};

/** The status of the route's valid request (§4.3): typing answers 204, every other route 200. */
const ROUTE_OK: Record<ChatRouteName, number> = { connect: 200, disconnect: 200, chats: 200, message: 200, status: 200, history: 200, typing: 204, react: 200 };

/**
 * The case that must still be accepted: the valid request with a header added that is not signed (§5.2 "Only the five
 * lines are signed") and its Date in the other RFC 2822 form, GMT (the kit's Date carries +0000), in one request to
 * spare one per route.
 */
const UNSIGNED_HEADER = 'unsigned header added, Date in GMT form' as const;

/**
 * Delivery status only: a wrong secret with `{msgid}` the integration-side id, so that a route that checks the
 * signature for one id of the message and not for the other is caught (the catalogue's path names the chat-interface id).
 */
const BY_MSGID = 'signed with a wrong secret, {msgid} the integration-side msgid' as const;

/** Signed with the real secret of another channel (REQ-5.2-secret-per-channel at every route). */
const OTHER_SECRET = 'signed with another channel\'s real secret' as const;

/**
 * The message route carries three event kinds (§4.3: a new message, an edit, a comment): each is sent valid, then
 * with every spoil of the catalogue (SIGNATURE_SPOILS: secret, body byte, path, method, Content-MD5, Content-Type,
 * Date, each signed header left out, another algorithm), signed with another channel's real secret, and last with an
 * unsigned header added and its Date in GMT form (accepted), so every §5.2 statement reaches every kind, not the new
 * message alone (issue 39 item 2).
 */
export const EVENT_KINDS = ['edit', 'comment'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
type EventVariant = SignatureSpoil | 'valid' | 'other-secret' | 'unsigned-header';
type EventCase = `${EventKind}: ${EventVariant}`;
const EVENT_VARIANTS: readonly EventVariant[] = ['valid', ...SIGNATURE_SPOILS, 'other-secret', 'unsigned-header'];
const EVENT_CASES: readonly EventCase[] = EVENT_KINDS.flatMap((k) => EVENT_VARIANTS.map((x) => `${k}: ${x}` as const));
const isEventCase = (c: string): c is EventCase => (EVENT_CASES as readonly string[]).includes(c);
const eventCaseOf = (c: EventCase) => c.split(': ') as [EventKind, EventVariant];

/** The edit of the fixture's message, or a comment on a post of its own, to the message route. */
export function eventCall(kind: EventKind, f: RouteFixture): ChatCall {
  const s = f.session;
  const json = kind === 'edit'
    ? editMessageBody({ conversation_id: f.conversationId, msgid: f.msgid, message: { type: 'text', text: `edited ${s.msgid()}` } })
    : newMessageBody(s.payload(f.conversationId, f.client, { message: { type: 'text', text: 'a signed comment', post: { id: `post-${s.msgid()}`, url: 'https://social.example/p/signed' } } }));
  return { method: 'POST', path: chatPaths.message(f.scopeId), json };
}

type RouteCase = SignatureSpoil | typeof UNSIGNED_HEADER | typeof BY_MSGID | typeof OTHER_SECRET | EventCase;

/** The route's fixture and another channel's secret to sign it with. */
interface RouteSweep extends RouteFixture {
  readonly other: OtherSecret;
}

function sendCase(t: RuleContext, route: ChatRouteName, c: RouteCase, f: RouteSweep): Promise<HttpResponse> {
  if (isEventCase(c)) {
    const [kind, variant] = eventCaseOf(c);
    const call = eventCall(kind, f);
    switch (variant) {
      case 'valid': return f.session.send(call);
      case 'other-secret': return f.session.send(call, { secret: f.other as string });
      case 'unsigned-header': return f.session.send(call, { zone: 'GMT', wire: { headers: { 'x-trace-id': t.runId } } });
      default: return f.session.send(call, spoilOptions(route, f, call, variant));
    }
  }
  const call = routeCall(route, f);
  switch (c) {
    case UNSIGNED_HEADER: return f.session.send(call, { zone: 'GMT', wire: { headers: { 'x-trace-id': t.runId } } });
    case BY_MSGID: return f.session.send({ ...call, path: chatPaths.deliveryStatus(f.scopeId, f.msgid) }, spoilOptions(route, f, call, 'wrong-secret'));
    case OTHER_SECRET: return f.session.send(call, { secret: f.other as string });
    default: return f.session.send(call, spoilOptions(route, f, call, c));
  }
}

function expectOf(route: ChatRouteName, c: RouteCase): Check[] {
  if (isEventCase(c)) {
    const variant = eventCaseOf(c)[1];
    if (variant === 'valid' || variant === 'unsigned-header') return [status(200), chatBodyIsJson];
    return variant === 'no-date' ? [refusalPreferred('no Date refused', 403), jsonContentTypeIfRefused] : [status(403), jsonContentType];
  }
  switch (c) {
    case UNSIGNED_HEADER: return [status(ROUTE_OK[route]), chatBodyIsJson];
    case BY_MSGID: return [status(403, { also: [404] }), jsonContentType];
    case 'no-date': return [refusalPreferred('no Date refused', 403), jsonContentTypeIfRefused];
    default: return [status(403), jsonContentType];
  }
}

function eventLabel(c: EventCase): string {
  const [kind, variant] = eventCaseOf(c);
  const what = variant === 'valid' ? 'correctly signed' : variant === 'other-secret' ? OTHER_SECRET : variant === 'unsigned-header' ? UNSIGNED_HEADER : SPOIL_WHAT[variant];
  return `${kind === 'edit' ? 'an edit_message' : 'a comment'}, ${what}`;
}

export function routeRule(route: ChatRouteName): RuleDraft {
  return sweepRule<RouteCase, HttpResponse, RouteSweep>(
    { id: `chat.signature.route.${route}`, requires: routeRequires(route), ...(route === 'disconnect' ? { needs: ['second-channel' as const] } : {}),
      title: `A ${ROUTE_TITLE[route]} whose signature is spoiled in any one way or signed with another channel's secret is refused with 403 and a JSON body; with an unsigned header added and a GMT Date it is accepted`,
      reading: '§4.3: 403 when the signature is incorrect, for every chat endpoint; §5.2: the four headers are carried by every chat request, X-Signature is HMAC-SHA1, Content-MD5 of a GET is the MD5 of the empty string. '
        + 'A missing signed header is an incorrect signature (another 4xx is non_strict); a request without Date accepted is non_strict (C64: the spec lists Date among the headers but does not call a request without it incorrect), without X-Signature or Content-MD5 it fails. Each case spoils one thing of a request that is otherwise accepted. '
        + (route === 'message' ? 'The route\'s other event kinds too (§4.3: an edit of the fixture\'s message, a comment on a post): each correctly signed is accepted (200), then spoiled in every way of the catalogue and signed with another channel\'s secret, each judged as the new message is, and with an unsigned header and a GMT Date accepted (issue 39: §5.2 at every event kind). ' : '')
        + (route === 'status' ? 'The path also names the message by its integration-side msgid, signed with a wrong secret: 403 (whether the path takes that id is open, chat.delivery-status.by-msgid; a 404, the message looked up first, is non_strict). ' : '')
        + `Signed with the real secret of another channel (${route === 'disconnect' ? 'here the configured channel\'s' : 'the control API\'s second channel, else CHANNEL_SECRET_2; without either the case is not sent and the outcome says why'}): the key is the secret of the channel addressed (REQ-5.2-secret-per-channel), so 403. `
        + 'Last, the valid request with an X-Trace-Id header added, which the signing string does not hold, and its Date in GMT form, is accepted (§5.2, REQ-5.2-unsigned-headers and REQ-5.2-date-rfc2822 at every route; another 2xx is non_strict), and its body, where the route has one, is JSON (§0; a route answering "with no body" may still send none).'
        + (route === 'disconnect' ? ' On a channel of its own (the control API\'s, else CHANNEL_ID_2), so that a wrongly accepted disconnect cuts no other rule\'s channel.' : ''),
      covers: SIGNED },
    {
      setup: async (t) => {
        const f = await routeFixture(t, route);
        return { ...f, other: await otherChannelSecret(t, route, f) };
      },
      // The accepted case last: on disconnect it spends the fixture's connection.
      named: (_t, f): RouteCase[] => [...spoilsFor(routeCall(route, f)), ...(route === 'status' && f.id !== f.msgid ? [BY_MSGID] : []), ...(route === 'message' ? EVENT_CASES : []), OTHER_SECRET, UNSIGNED_HEADER],
      label: (c) => (c in SPOIL_WHAT ? SPOIL_WHAT[c as SignatureSpoil] : isEventCase(c) ? eventLabel(c) : c),
      unsent: (c, f) => ((c === OTHER_SECRET || (isEventCase(c) && eventCaseOf(c)[1] === 'other-secret')) && typeof f.other !== 'string' ? f.other.missing
        // The accepted delivery status names the message by its chat-interface id; an answer without one leaves only the
        // msgid, which the spec does not name for the path: the case would fail for chat.message.answer's finding, not this rule's.
        : route === 'status' && c === UNSIGNED_HEADER && !f.idAnswered ? 'the message\'s answer named no new_message.msgid (chat.message.answer judges it), so there is no chat-interface id for the path: the accepted case is not sent' : undefined),
      send: (t, c, f) => sendCase(t, route, c, f),
      expect: (_t, c) => expectOf(route, c),
      what: 'every spoiled signature refused, the unsigned header taken',
    },
  );
}

/** The skew of Date the target accepts each way, measured by bisection (`window`). */
/** A day, the age of a replayed request: past any window a service could mean by "current time" (§5.2 Date). */
const DAY_MS = 86_400_000;

/**
 * The routes the replay rule sends a day-old request to: every chat route but disconnect, which a server that takes
 * the old Date would carry out, so it would need a channel of its own (second-channel), and that need would skip the
 * whole rule on a target without a control API or CHANNEL_ID_2.
 */
export const REPLAY_ROUTES = CHAT_ROUTES.filter((r) => r !== 'disconnect');

/** The route's valid request, correctly signed, dated a day before the target clock. */
export function sendDayOld(route: ChatRouteName | EventKind, f: RouteFixture): Promise<HttpResponse> {
  const call = route === 'edit' || route === 'comment' ? eventCall(route, f) : routeCall(route, f);
  return f.session.send(call, { skewMs: -DAY_MS });
}

export async function skewWindows(s: ChatSession): Promise<SkewWindows> {
  return { past: await window(s, -1), future: await window(s, 1) };
}
