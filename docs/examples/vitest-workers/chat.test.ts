// docs/examples/vitest-workers/chat.test.ts
import { expect, it } from 'vitest';
import { signChatRequest } from 'conformance-kit/chat-signature';
import { useSandbox } from 'conformance-kit/vitest';

const sandbox = useSandbox();

const account = () =>
  fetch(`${sandbox.url}/api/v4/account`, { headers: { authorization: `Bearer ${sandbox.settings.LONG_LIVED_TOKEN}` } });
const badlySignedConnect = () => {
  const url = `/v2/origin/custom/${sandbox.settings.CHANNEL_ID}/connect`;
  const body = JSON.stringify({ account_id: sandbox.settings.CHAT_ACCOUNT_ID, title: 'My channel' });
  const headers = signChatRequest({ method: 'POST', url, body, secret: 'not the channel secret' });
  return fetch(`${sandbox.url}${url}`, { method: 'POST', body, headers });
};

it('sees its own fault, and never the one account.test.ts switches on in its own sandbox', async () => {
  sandbox.faults.enable('chat-signature-not-checked');
  // Long enough for the other file's test to run meanwhile, in its own worker.
  for (const until = Date.now() + 4_000; Date.now() < until;) {
    expect((await badlySignedConnect()).status).toBe(200);
    expect((await account()).headers.get('content-type')).toMatch(/^application\/hal\+json/);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
