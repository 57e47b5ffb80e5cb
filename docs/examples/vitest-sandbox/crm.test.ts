// docs/examples/vitest-sandbox/crm.test.ts
// An integrator's tests against the emulator: the account API with the long-lived token, a signed chat request,
// a fault switched on through the control API, and a reset between tests.
import { beforeEach, expect, inject, it } from 'vitest';
import { signChatRequest } from 'conformance-kit/chat-signature';
import { signDisconnectHook, verifyDisconnectHook } from 'conformance-kit/hook';

const crm = inject('crm');
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${crm.BASE_URL}${path}`, { ...init, headers: { authorization: `Bearer ${crm.LONG_LIVED_TOKEN}`, 'content-type': 'application/json', ...init.headers } });
const control = (path: string, body?: unknown) =>
  fetch(`${crm.CONTROL_URL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });

// Every test starts from the state the settings were made in: records, chats, clock and faults as at start.
beforeEach(async () => { await control('/reset'); });

it('creates a lead and reads it back', async () => {
  const made = await api('/api/v4/leads', { method: 'POST', body: JSON.stringify([{ name: 'First lead', price: 100 }]) });
  expect(made.status).toBe(200);
  const { _embedded } = (await made.json()) as { _embedded: { leads: { id: number }[] } };
  const id = _embedded.leads[0]!.id;
  const lead = await (await api(`/api/v4/leads/${id}`)).json();
  expect(lead).toMatchObject({ id, name: 'First lead', price: 100 });
});

it('connects the chat channel with a signed request', async () => {
  const url = `/v2/origin/custom/${crm.CHANNEL_ID}/connect`;
  const body = JSON.stringify({ account_id: crm.CHAT_ACCOUNT_ID, title: 'My channel' });
  const headers = signChatRequest({ method: 'POST', url, body, secret: crm.CHANNEL_SECRET! });
  const res = await fetch(`${crm.CHAT_URL}${url}`, { method: 'POST', body, headers });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { scope_id: string }).scope_id).toBe(`${crm.CHANNEL_ID}_${crm.CHAT_ACCOUNT_ID}`);
});

it('sees a fault the test switches on, and none after the reset', async () => {
  await control('/faults', { enable: ['account-answer-text-plain'] });
  expect((await api('/api/v4/account')).headers.get('content-type')).toMatch(/^text\/plain/);
});

it('has no fault left from the test before', async () => {
  expect((await api('/api/v4/account')).headers.get('content-type')).toMatch(/^application\/hal\+json/);
});

it('verifies a disconnect hook as the receiver must (§5.3)', () => {
  const credentials = { clientId: crm.CLIENT_ID!, clientSecret: crm.CLIENT_SECRET! };
  const query = signDisconnectHook(12345, credentials);
  expect(verifyDisconnectHook(query, credentials).ok).toBe(true);
  expect(verifyDisconnectHook({ ...query, account_id: '54321' }, credentials).ok).toBe(false);
});
