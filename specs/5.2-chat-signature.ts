/**
 * §5.2 Chat interface signature, probed one part at a time: from a request signed correctly, change the method, one
 * body byte, Content-MD5, Content-Type, Date, the path or the secret, and the target must answer 403; change a header
 * that is not signed and it must still accept. GET signs the MD5 of the empty string and the path without its query.
 */
import fc from 'fast-check';
import {
  type ChatCall, chatPaths, chatRequest, type ChatSession, chatSession, connectBody, contentMd5, defineSpec, EMPTY_MD5, exchangeRule, fail, jsonContentType, observed, propertyRule, rfc2822Date, rule, type RuleDraft, type SendOptions, status, type Tamper, tamperBody, type TamperPart, TAMPERS,
} from './kit.js';

const SIGNED = ['5.2/Content-Type', '5.2/Date', '5.2/Content-MD5', '5.2/X-Signature'];

/** The base request: connect (idempotent, always allowed), with a title so the body has letters to change. */
function connectCall(s: ChatSession): ChatCall {
  return { method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(s.channel.accountId, { title: `Signed channel ${s.t.runId}` }) };
}

/** How one tamper is applied: what the signature covers versus what goes on the wire. */
function tamperOptions(s: ChatSession, call: ChatCall, tamper: Tamper): SendOptions {
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

const WHAT: Record<TamperPart, string> = {
  method: 'signed with another method than sent',
  'body-byte': 'with one body byte changed after signing (Content-MD5 and X-Signature of the original)',
  'content-md5': 'with a Content-MD5 that is not the MD5 of the body',
  'content-type': 'with another Content-Type than signed',
  date: 'with another Date than signed',
  path: 'signed for another path (another endpoint, another channel, no /v2/origin/custom prefix, a trailing slash)',
  secret: 'signed with a wrong secret',
};

const READINGS: Partial<Record<TamperPart, string>> = {
  'body-byte': 'The MD5 is over the received bytes (docs/field-notes.md); a letter inside a string value is changed so the body stays valid JSON and only the hash can catch it.',
  path: 'The signed path includes /v2/origin/custom/... and excludes the query string (docs/field-notes.md).',
  date: 'The sent Date is within the accepted window, so only the signature can catch it.',
};

function tamperRule(part: TamperPart): RuleDraft {
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
async function acceptsSkew(s: ChatSession, skewS: number): Promise<boolean> {
  const res = await s.send(connectCall(s), { skewMs: skewS * 1000 });
  return res.status === 200;
}

/** Largest accepted skew in one direction, by bisection over [0, 86400] s (17 probes at most). */
async function window(s: ChatSession, sign: 1 | -1): Promise<string> {
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

export default defineSpec({
  section: '5.2',
  title: 'Chat interface signature',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'chat.signature.valid', requires: [], title: 'A correctly signed chat request (connect) is accepted with 200',
        reading: 'Date as `Thu, 29 Oct 2020 11:59:55 +0000` (RFC 2822, numeric zone), read from the target clock when it has a control API.', covers: SIGNED },
      { send: async (t) => { const s = await chatSession(t); return s.send(connectCall(s)); }, expect: [status(200), jsonContentType] },
    ),
    propertyRule<'GMT' | number>(
      { id: 'chat.signature.date-formats', requires: [], title: 'Date in RFC 2822 with a numeric zone or with GMT is accepted',
        reading: 'Both forms are valid RFC 2822 and both are in use by clients (docs/field-notes.md); the same instant in any zone is the same Date.', covers: ['5.2/Date'] },
      {
        cases: () => fc.oneof(fc.constant('GMT' as const), fc.constant(0), fc.integer({ min: -47, max: 56 }).map((q) => q * 15)),
        send: async (t, zone) => { const s = await chatSession(t); return s.send(connectCall(s), { zone }); },
        expect: [status(200)],
      },
    ),
    ...(Object.keys(TAMPERS) as TamperPart[]).map(tamperRule),
    propertyRule<Record<string, string>>(
      { id: 'chat.signature.unsigned-header', requires: [], title: 'A header that is not signed can be added or changed without invalidating the signature',
        reading: 'Only method, Content-MD5, Content-Type, Date and path are signed (§5.2); proxies add headers such as X-Request-Id, User-Agent.', covers: SIGNED },
      {
        cases: () => fc.dictionary(fc.constantFrom('x-trace-id', 'user-agent', 'accept', 'x-client-version', 'accept-language'), fc.stringMatching(/^[A-Za-z0-9./ -]{1,24}$/), { minKeys: 1, maxKeys: 3 }),
        send: async (t, headers) => { const s = await chatSession(t); return s.send(connectCall(s), { wire: { headers } }); },
        expect: [status(200)],
      },
    ),
    rule(
      { id: 'chat.signature.get-query-not-signed', requires: [], title: 'A GET (history) signs the MD5 of the empty string and the path without its query string',
        reading: '§5.2 and §4.3 history: Content-MD5 is the hash of the empty string; the signing string ends with the path without query string.', covers: [...SIGNED, '4.3/Get chat history/offset', '4.3/Get chat history/limit'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        await s.mustSend(s.payload(conv, s.client()));
        const res = await s.history(conv, { offset: 0, limit: 10 });
        const f = t.check(res, [status(200)]);
        if (res.status === 403) f.push(fail('query not signed', 'a GET signed over the path without its query string was refused with 403'));
        return t.outcome(f);
      },
    ),
    exchangeRule(
      { id: 'chat.signature.checked-before-validation', level: 'should', requires: [], title: 'An invalid body with a wrong signature gets 403, not 400: the signature is checked first',
        reading: 'The spec lists 403 and 400 for every chat endpoint without an order; checking the signature first never tells an unauthenticated caller what a valid body looks like. 400 (the body validated first, still refused) is non_strict (C63); accepting the request fails.', covers: ['5.2/X-Signature'] },
      {
        send: async (t) => { const s = await chatSession(t); return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: { title: 42 } }, { secret: 'not-the-channel-secret' }); },
        expect: [status(403)],
      },
    ),
    exchangeRule(
      { id: 'chat.signature.upper-case-hex', level: 'info', requires: [], title: 'Whether Content-MD5 and X-Signature in upper-case hex are accepted',
        reading: '§5.2 states lower-case hex; a target that accepts upper case is lenient, one that refuses it is literal. Reported, not judged.', covers: ['5.2/Content-MD5', '5.2/X-Signature'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          const call = connectCall(s);
          const md5 = contentMd5(JSON.stringify(call.json)).toUpperCase();
          const probe = chatRequest(call, { chatUrl: t.target.chatUrl, secret: s.channel.secret, now: s.now(), sign: { md5 } });
          return t.send({ ...probe, headers: { ...probe.headers, 'content-md5': md5, 'x-signature': probe.headers!['x-signature']!.toUpperCase() } });
        },
        expect: [(res) => observed('upper-case hex', res.status === 200 ? 'accepted (200)' : `refused (${res.status})`)],
      },
    ),
    rule(
      { id: 'chat.signature.date-skew', level: 'info', requires: [], title: 'How far Date may be from the target clock, measured both ways',
        reading: 'The spec says "current time"; the live service is documented to accept about 15 minutes. Measured by bisection against the target clock (read through the control API when there is one).', covers: ['5.2/Date'] },
      async (t) => {
        const s = await chatSession(t);
        const past = await window(s, -1);
        const future = await window(s, 1);
        return t.outcome([observed('Date skew', `Date in the past: ${past}; in the future: ${future}`)]);
      },
    ),
  ],
});

