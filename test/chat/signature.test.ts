/**
 * The exported chat signer (§5.2) against vectors computed by openssl, spawned here: `openssl dgst -md5` over the
 * body bytes and `openssl dgst -sha1 -hmac <secret>` over the signing string.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  chatSignature, contentMd5, EMPTY_MD5, parseRfc2822, rfc2822Date, signChatRequest, signedPath, signingString,
} from '../../src/protocol/chat-signature.js';

function openssl(args: string[], input: string | Buffer): string {
  const r = spawnSync('openssl', ['dgst', ...args], { input });
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr.toString()}`);
  // "MD5(stdin)= abc…" or "(stdin)= abc…"
  return r.stdout.toString().trim().split('= ').pop()!;
}

const SECRET = 'a7f3c9e1b2d4f6a8c0e2b4d6f8a0c2e4d6f8a0b2';
const BODIES = ['', '{"account_id":"8c9c…","hook_api_version":"v2","title":"Тест канала"}', '{"event_type":"new_message","payload":{"message":{"type":"text","text":"hello\\nworld 😀"}}}', ' '];

describe('chat signature (§5.2)', () => {
  it.each(BODIES)('Content-MD5 of %j equals openssl dgst -md5', (body) => {
    expect(contentMd5(body)).toBe(openssl(['-md5'], body));
    expect(contentMd5(Buffer.from(body))).toBe(contentMd5(body));
  });

  it('uses the MD5 of the empty string for a GET (docs/field-notes.md value)', () => {
    expect(contentMd5(undefined)).toBe(EMPTY_MD5);
    expect(EMPTY_MD5).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(openssl(['-md5'], '')).toBe(EMPTY_MD5);
  });

  it.each([
    ['POST', '/v2/origin/custom/chan-1/connect', BODIES[1]!, 'Thu, 29 Oct 2020 11:59:55 +0000'],
    ['GET', '/v2/origin/custom/scope_1/chats/conv-1/history?offset=0&limit=50', '', 'Thu, 29 Oct 2020 11:59:55 GMT'],
    ['DELETE', '/v2/origin/custom/chan-1/disconnect', '{"account_id":"x"}', 'Mon, 02 Jan 2006 15:04:05 +0300'],
  ])('X-Signature of %s %s equals openssl dgst -sha1 -hmac', (method, path, body, date) => {
    const parts = { method, md5: contentMd5(body), contentType: 'application/json', date, path };
    const text = [method, parts.md5, 'application/json', date, path.split('?')[0]].join('\n');
    expect(signingString(parts)).toBe(text);
    expect(chatSignature(SECRET, parts)).toBe(openssl(['-sha1', '-hmac', SECRET], text));
    expect(chatSignature(SECRET, parts)).toMatch(/^[0-9a-f]{40}$/);
  });

  it('signs the path without query string, with the /v2/origin/custom prefix, from a URL or a path', () => {
    expect(signedPath('https://amojo.example:8443/v2/origin/custom/s/chats/c/history?limit=5#x')).toBe('/v2/origin/custom/s/chats/c/history');
    expect(signedPath('/v2/origin/custom/s?x=1')).toBe('/v2/origin/custom/s');
  });

  it('signs a whole request: lower-case hex, the four headers', () => {
    const h = signChatRequest({ method: 'post', url: 'http://127.0.0.1:1/v2/origin/custom/c/connect?q=1', body: BODIES[1], secret: SECRET, date: new Date(Date.UTC(2020, 9, 29, 11, 59, 55)) });
    expect(h.date).toBe('Thu, 29 Oct 2020 11:59:55 +0000');
    expect(h['content-md5']).toBe(openssl(['-md5'], BODIES[1]!));
    const text = ['POST', h['content-md5'], 'application/json', h.date, '/v2/origin/custom/c/connect'].join('\n');
    expect(h['x-signature']).toBe(openssl(['-sha1', '-hmac', SECRET], text));
  });

  it('writes and reads RFC 2822 dates with a numeric zone and with GMT', () => {
    const d = new Date(Date.UTC(2020, 9, 29, 11, 59, 55));
    expect(rfc2822Date(d, 'GMT')).toBe('Thu, 29 Oct 2020 11:59:55 GMT');
    expect(rfc2822Date(d, 180)).toBe('Thu, 29 Oct 2020 14:59:55 +0300');
    expect(rfc2822Date(d, -330)).toBe('Thu, 29 Oct 2020 06:29:55 -0530');
    for (const zone of ['GMT', 0, 180, -330] as const) expect(parseRfc2822(rfc2822Date(d, zone))).toBe(d.getTime());
    expect(parseRfc2822('2020-10-29T11:59:55Z')).toBeUndefined();
    expect(parseRfc2822('Thu, 29 Oct 2020 25:59:55 +0000')).toBeUndefined();
  });
});
