/**
 * The variations that change answers as a whole (./variations.ts): applied once, as the last step before an answer
 * leaves, so that every route gets them without knowing of them. Variations of one behaviour (a lifetime, a refusal's
 * status code) live beside the code of that behaviour, as faults do.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VariationSwitches } from './variations.js';
import { CHAT_PREFIX } from './chat/http.js';

const SLOW_ANSWER_MS = 12_000;

/** The areas whose first answer `slow-answers` holds. */
function areaOf(path: string): string | undefined {
  if (path.includes('/oauth2/access_token')) return 'token';
  if (path.includes('/api/v4/')) return 'api';
  if (path.startsWith(`${CHAT_PREFIX}/`)) return 'chat';
  return undefined;
}

/** Deep copy with every object's members in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
}

/** Deep copy with `x_extension: true` added to every object. */
function extended(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(extended);
  if (value === null || typeof value !== 'object') return value;
  return { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, extended(v)])), x_extension: true };
}

const isJsonType = (type: unknown): boolean => typeof type === 'string' && /^application\/([\w.+-]+\+)?json\b/i.test(type);

export function installAnswerVariations(app: FastifyInstance, variations: VariationSwitches): void {
  const held = new Set<string>();
  app.addHook('onSend', async (request: FastifyRequest, reply, payload) => {
    const v = variations;
    const path = (request.raw.url ?? '').split('?')[0]!;
    let out = payload;
    const type = reply.getHeader('content-type');

    if (path.startsWith(`${CHAT_PREFIX}/`) && reply.statusCode === 200 && out === '') {
      if (v.isOn('bodiless-200-as-204')) reply.code(204).removeHeader('content-type');
      else if (v.isOn('bodiless-200-with-json')) out = JSON.stringify({ result: 'ok' });
    }
    if (isJsonType(type) && typeof out === 'string' && out !== '') {
      if (v.isOn('json-members-reordered') || v.isOn('json-extra-members')) {
        let body: unknown;
        try { body = JSON.parse(out); } catch { return out; }
        if (v.isOn('json-extra-members')) body = extended(body);
        if (v.isOn('json-members-reordered')) body = reversed(body);
        out = JSON.stringify(body);
      }
      const essence = String(type).split(';')[0]!.trim();
      if (v.isOn('json-media-type-case')) reply.header('content-type', `${essence.replace(/^application\/json$/i, 'Application/JSON')}; Charset=UTF-8`);
      else if (v.isOn('json-media-type-no-charset')) reply.header('content-type', essence);
    }
    const area = areaOf(path);
    if (v.isOn('slow-answers') && area && !held.has(area)) {
      held.add(area);
      await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    }
    return out;
  });
}
