// docs/examples/vitest-workers/account.test.ts
import { expect, it } from 'vitest';
import { useSandbox } from 'conformance-kit/vitest';
import { account, badlySignedConnect } from './requests.js';

// This file's own sandbox: started before its first test, reset before each, closed after its last.
const sandbox = useSandbox();

it('sees its own fault, and never the one chat.test.ts switches on in its own sandbox', async () => {
  sandbox.faults.enable('account-answer-text-plain');
  // Long enough for the other file's test to run meanwhile, in its own worker.
  for (const until = Date.now() + 4_000; Date.now() < until;) {
    expect((await account(sandbox)).headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await badlySignedConnect(sandbox)).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

it('starts from a reset sandbox', async () => {
  expect(sandbox.faults.active()).toEqual([]);
  expect((await account(sandbox)).headers.get('content-type')).toMatch(/^application\/hal\+json/);
});
