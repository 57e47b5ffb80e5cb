// docs/examples/vitest-workers/chat.test.ts
import { expect, it } from 'vitest';
import { useSandbox } from 'conformance-kit/vitest';
import { account, badlySignedConnect } from './requests.js';

const sandbox = useSandbox();

it('sees its own fault, and never the one account.test.ts switches on in its own sandbox', async () => {
  sandbox.faults.enable('chat-signature-not-checked');
  for (const until = Date.now() + 4_000; Date.now() < until;) {
    expect((await badlySignedConnect(sandbox)).status).toBe(200);
    expect((await account(sandbox)).headers.get('content-type')).toMatch(/^application\/hal\+json/);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
