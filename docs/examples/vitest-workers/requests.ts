// docs/examples/vitest-workers/requests.ts
import { signChatRequest } from 'conformance-kit/chat-signature';
import type { Sandbox } from 'conformance-kit/emulator';

/** The account, with the sandbox's long-lived token. */
export const account = (sandbox: Sandbox) =>
  fetch(`${sandbox.url}/api/v4/account`, { headers: { authorization: `Bearer ${sandbox.settings.LONG_LIVED_TOKEN}` } });

/** A chat connect signed with a wrong secret: 403, unless the sandbox's chat-signature-not-checked fault is on. */
export const badlySignedConnect = (sandbox: Sandbox) => {
  const url = `/v2/origin/custom/${sandbox.settings.CHANNEL_ID}/connect`;
  const body = JSON.stringify({ account_id: sandbox.settings.CHAT_ACCOUNT_ID, title: 'My channel' });
  const headers = signChatRequest({ method: 'POST', url, body, secret: 'not the channel secret' });
  return fetch(`${sandbox.url}${url}`, { method: 'POST', body, headers });
};
