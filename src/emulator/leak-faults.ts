/**
 * Faults that leak a credential where the spec puts none (./faults.ts): in a header of an answer, a token inside a
 * body's values, or a secret key in a body; and the one answer-wide fault of the media type (a 405 in HTML). Applied as
 * the last step before an answer leaves, so that they reach every route of their area alike; the runner's leak scan
 * fails any rule that meets a leak (src/runner/recorder.ts, "no credential leak").
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from './context.js';
import { CHAT_PREFIX } from './chat/http.js';


export function installLeakFaults(app: FastifyInstance, ctx: EmulatorContext): void {
  const f = ctx.faults;
  app.addHook('onSend', async (request, reply, payload) => {
    const path = (request.raw.url ?? '').split('?')[0]!;
    if (f.isOn('token-in-cookie') && path.endsWith('/oauth2/access_token') && reply.statusCode === 200 && typeof payload === 'string') {
      // §2.2: the access token "must be kept private to the application (not in browser cookies …)".
      const token = (JSON.parse(payload) as { access_token?: string }).access_token;
      if (token) reply.header('set-cookie', `access_token=${token}; Path=/; HttpOnly`);
    }
    if (f.isOn('api-echoes-bearer') && path.includes('/api/v4/') && reply.statusCode < 300) {
      const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
      if (bearer) reply.header('x-access-token', bearer);
    }
    if (f.isOn('api-links-carry-token') && /^\/api\/v4\/(leads|contacts|companies|customers)$/.test(path) && reply.statusCode === 200 && typeof payload === 'string') {
      // A client that follows the link sends its token in a URL, where logs and Referer headers keep it.
      const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
      if (bearer) return payload.replace(/("href":"[^"?]*)(\?)?/g, (_m, href: string, q?: string) => `${href}?access_token=${encodeURIComponent(bearer)}${q ? '&' : ''}`);
    }
    if (f.isOn('wrong-method-html') && reply.statusCode === 405 && !path.startsWith(`${CHAT_PREFIX}/`) && !path.startsWith('/_control')) {
      reply.header('content-type', 'text/html; charset=utf-8');
      return '<!DOCTYPE html><html><head><title>405 Not Allowed</title></head><body><h1>405 Not Allowed</h1></body></html>';
    }
    if (f.isOn('chat-signature-error-names-secret') && path.startsWith(`${CHAT_PREFIX}/`) && reply.statusCode === 403 && typeof payload === 'string') {
      return payload.replace('invalid signature:', `invalid signature (expected HMAC-SHA1 keyed with ${ctx.world.channel.secret}):`);
    }
    return payload;
  });
}
