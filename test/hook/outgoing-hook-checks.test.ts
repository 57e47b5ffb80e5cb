/**
 * The checks of outgoing-message hooks (src/checks/outgoing-hook.ts): which version each hook went with, and the
 * payload keys an `info` rule records.
 */
import { describe, expect, it } from 'vitest';
import { hookPayloadKeys, hookWentWithItsVersion } from '../../src/checks/outgoing-hook.js';

describe('hookWentWithItsVersion', () => {
  it('passes when every hook of the message went with the connection\'s version', () => {
    const f = hookWentWithItsVersion({ version: 'v2', hooks: [{ hook_api_version: 'v2' }, { hook_api_version: 'v2' }] });
    expect(f).toMatchObject({ check: 'hook v2', verdict: 'passed' });
  });

  it('fails when no hook came, naming the connection', () => {
    const f = hookWentWithItsVersion({ version: 'v1', hooks: [] });
    expect(f.verdict).toBe('failed');
    expect(f.detail).toMatch(/v1 connection, observed none/);
  });

  it('fails when one went with another version, or with none, naming what was seen', () => {
    const f = hookWentWithItsVersion({ version: 'v1', hooks: [{ hook_api_version: 'v1' }, { hook_api_version: 'v2' }, {}] });
    expect(f.verdict).toBe('failed');
    expect(f.detail).toContain('observed v2, no hook_api_version');
  });
});

describe('hookPayloadKeys', () => {
  it('records the keys two levels deep, sorted and dotted', () => {
    const f = hookPayloadKeys({ version: 'v2', hooks: [{ payload: { time: 1, account_id: 'a', message: { sender: { id: 'x' }, text: 't', empty: {} } } }] });
    expect(f).toMatchObject({ check: 'v2 payload', verdict: 'informational', detail: 'keys account_id, message.empty, message.sender, message.text, time' });
  });

  it('records a missing hook, a log without payloads and a payload that is not an object', () => {
    expect(hookPayloadKeys({ version: 'v1', hooks: [] }).detail).toBe('no hook of the v1 connection to read');
    expect(hookPayloadKeys({ version: 'v1', hooks: [{ hook_api_version: 'v1' }] }).detail).toBe('the hooks log carries no payload');
    expect(hookPayloadKeys({ version: 'v1', hooks: [{ payload: [1] }] }).detail).toBe('not a JSON object: an array');
    expect(hookPayloadKeys({ version: 'v1', hooks: [{ payload: {} }] }).detail).toBe('an empty object');
    for (const h of [[], [{ payload: {} }]]) expect(hookPayloadKeys({ version: 'v1', hooks: h }).verdict).toBe('informational');
  });
});
