/**
 * `POST /_control/reset` returns to the state `conformance emulator` printed its settings in (issue 23, point 6): the
 * long-lived token, the second channels, the second integration's secret key and the Cyrillic lead it made are all
 * still valid after a reset. That a whole run after a reset gives, rule by rule, what the same run gives on the fresh
 * emulator is test/configurations/suite.test.ts's to show (its remote-control run, made again after a reset).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { signChatRequest } from '../../src/protocol/chat-signature.js';

let emulator: RunningEmulator;
let settings: Record<string, string>;
beforeAll(async () => {
  emulator = await startEmulator({ seed: 23 });
  settings = await emulatorSettings(emulator);
});
afterAll(() => emulator?.close());

const reset = () => fetch(`${emulator.url}/_control/reset`, { method: 'POST' });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function printedSettingsWork(): Promise<void> {
  const account = await fetch(`${emulator.url}/api/v4/account`, { headers: bearer(settings.LONG_LIVED_TOKEN!) });
  expect(account.status).toBe(200);
  const lead = await fetch(`${emulator.url}/api/v4/leads/${settings.NON_ASCII_LEAD_ID}`, { headers: bearer(settings.LONG_LIVED_TOKEN!) });
  expect(lead.status).toBe(200);
  expect(((await lead.json()) as { name: string }).name).toBe(settings.NON_ASCII_LEAD_NAME);
  for (const [channel, secret] of [[settings.CHANNEL_ID_2!, settings.CHANNEL_SECRET_2!], [settings.V1_CHANNEL_ID!, settings.V1_CHANNEL_SECRET!]] as const) {
    const url = `/v2/origin/custom/${channel}/connect`;
    const body = JSON.stringify({ account_id: settings.CHAT_ACCOUNT_ID });
    const r = await fetch(`${emulator.url}${url}`, { method: 'POST', body, headers: signChatRequest({ method: 'POST', url, body, secret }) });
    expect(r.status, channel).toBe(200);
  }
  const code = ((await (await fetch(`${emulator.url}/_control/consent`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: settings.CLIENT_ID_2, decision: 'allow' }),
  })).json()) as { code: string }).code;
  const exchange = await fetch(`${emulator.url}/oauth2/access_token`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: settings.CLIENT_ID_2, client_secret: settings.CLIENT_SECRET_2, grant_type: 'authorization_code', code, redirect_uri: settings.REDIRECT_URI_2 }),
  });
  expect(exchange.status, await exchange.clone().text()).toBe(200);
}

describe('a reset returns to the printed settings', () => {
  it('keeps every printed credential and record working, and drops what came after', async () => {
    await printedSettingsWork();
    // Changes after the settings: the token revoked, a lead written, a secret regenerated; a reset undoes them all.
    const { tokens } = (await (await fetch(`${emulator.url}/_control/long-lived-tokens`)).json()) as { tokens: { id: string }[] };
    for (const t of tokens) await fetch(`${emulator.url}/_control/long-lived-tokens/${t.id}`, { method: 'DELETE' });
    expect((await fetch(`${emulator.url}/api/v4/account`, { headers: bearer(settings.LONG_LIVED_TOKEN!) })).status).toBe(401);
    const made = await fetch(`${emulator.url}/api/v4/leads`, {
      method: 'POST', headers: { ...bearer(settings.LONG_LIVED_TOKEN!), 'content-type': 'application/json' }, body: '[{"name":"after"}]',
    });
    expect(made.status).toBe(401);
    await fetch(`${emulator.url}/_control/secret`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: settings.CLIENT_ID_2 }) });
    expect((await reset()).status).toBe(200);
    await printedSettingsWork();
  });
});
