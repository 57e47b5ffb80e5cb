/**
 * The access-granting page over plain HTTP (the browser rules drive it in Chromium): login, session, form token,
 * escaping, modes, and never a 5xx on bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../emulator/helpers.js';

describe('access-granting page', () => {
  let h: Harness;
  let login: { login: string; password: string };
  beforeAll(async () => {
    h = await Harness.start();
    login = (await h.request('GET', '/_control/login')).json;
  });
  afterAll(() => h.close());

  const form = (body: Record<string, string>, cookie?: string) => h.request('POST', '/oauth/login', {
    body: new URLSearchParams(body).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
  });

  async function session(query: string): Promise<{ cookie: string; formToken: string; html: string }> {
    const r = await fetch(`${h.url}/oauth/login`, {
      method: 'POST', redirect: 'manual',
      body: new URLSearchParams({ login: login.login, password: login.password, return: `/oauth?${query}` }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/oauth?${query}`);
    expect(r.headers.get('set-cookie')).toMatch(/HttpOnly/);
    const cookie = /emu_session=[^;]+/.exec(r.headers.get('set-cookie') ?? '')?.[0];
    const page = await h.request('GET', `/oauth?${query}`, { headers: { cookie: cookie ?? '' } });
    return { cookie: cookie ?? '', formToken: /name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '', html: page.text };
  }

  it('asks for a login without a session, refuses a wrong password with 401, and HTML-escapes the state', async () => {
    const r = await h.request('GET', `/oauth?client_id=${h.env.CLIENT_ID}&state=${encodeURIComponent('"><script>x</script>')}`);
    expect(r.status).toBe(200);
    expect(r.contentType).toContain('text/html');
    expect(r.text).toContain('type="password"');
    expect(r.text).not.toContain('<script>x</script>');
    expect((await form({ login: login.login, password: 'wrong', return: `/oauth?client_id=${h.env.CLIENT_ID}` })).status).toBe(401);
    expect((await form({ login: login.login, password: login.password, return: 'https://evil.example/' })).status).toBe(400);
  });

  it('shows logo, name, permissions and the administrator\'s accounts after login; a private integration gets one', async () => {
    const s = await session(`client_id=${h.env.CLIENT_ID}`);
    expect(s.html).toContain('Conformance Emulator Integration');
    expect(s.html).toMatch(/<ul id="permissions"><li/);
    expect(s.html.match(/name="account_id"/g)).toHaveLength(2);
    const logo = await h.request('GET', `/oauth/logo/${h.env.CLIENT_ID}.png`);
    expect(logo.contentType).toBe('image/png');
    const priv = (await h.request('GET', '/_control/integrations')).json.integrations.find((i: { private: boolean }) => i.private);
    const p = await h.request('GET', `/oauth?client_id=${priv.client_id}`, { headers: { cookie: s.cookie } });
    expect(p.text.match(/name="account_id"/g)).toHaveLength(1);
  });

  it('redirects on Allow and Deny with a session and its form token, and refuses without them', async () => {
    const s = await session(`client_id=${h.env.CLIENT_ID}&state=a%26b`);
    const decide = (fields: Record<string, string>, cookie = s.cookie) => fetch(`${h.url}/oauth/decide`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ client_id: h.env.CLIENT_ID!, form_token: s.formToken, ...fields }).toString(),
    });
    const allow = await decide({ decision: 'allow', state: 'a&b' });
    expect(allow.status).toBe(303);
    const location = new URL(allow.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('a&b');
    expect(location.searchParams.get('code')).toBeTruthy();
    const deny = await decide({ decision: 'deny' });
    expect(new URL(deny.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    expect((await decide({ decision: 'allow' }, '')).status).toBe(401);
    expect((await decide({ decision: 'allow', form_token: 'stale' })).status).toBe(403);
    const popup = await decide({ decision: 'allow', mode: 'popup' });
    expect(popup.status).toBe(200);
    expect(await popup.text()).toContain('window.opener.location.href');
  });

  it('answers bad input with a 4xx page, never a 5xx', async () => {
    for (const path of ['/oauth', '/oauth?client_id=nope', '/oauth?client_id[a]=1', `/oauth?client_id=${h.env.CLIENT_ID}&state=1&state=2`, '/oauth/logo/nope.png']) {
      const r = await h.request('GET', path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
    }
    expect((await h.request('POST', '/oauth/decide', { body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(401);
  });
});
