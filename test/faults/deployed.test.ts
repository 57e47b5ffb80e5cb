/**
 * The faults of issue 27 that only a service with accounts at their own addresses can show (one account reaching
 * another's data, a token working at an address it was not granted for, ids crossing scopes, rights ignored), caught
 * on the deployed shape too (src/emulator/shape.ts): each account at its own host, the chat interface at its own. The
 * one-origin shape's run of every fault is test/faults/faults.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { PROFILE_RUNS } from '../../src/cli/run-options.js';
import { FAULT_TABLE as FAULTS } from '../../src/emulator/faults.js';
import { executeRun } from '../../src/runner/execute.js';
import { startEmbeddedTarget } from '../../src/targets/embedded.js';

const SEED = 20261122;
const DEPLOYED_FAULTS = [
  'base-url-any-account', 'code-any-account-address', 'refresh-any-account-address', 'long-lived-any-account-address',
  'lists-any-account-address', 'deactivated-token-works-at-own-address', 'disconnected-token-works-at-own-address',
  'chat-history-any-scope', 'chat-status-by-id-any-scope', 'chat-react-by-id-any-scope', 'chat-edit-by-id-any-scope',
  'chat-status-unsigned-by-chat-interface-id', 'chat-forwards-source-any-scope', 'chat-forwards-ref-id-source-any-scope', 'chat-comment-any-scope',
  'rights-restricted-user-sees-every-lead', 'rights-filter-id-ignores-rights',
] as const;
const byId = new Map(allRules().map((r) => [r.id, r]));

describe('the faults of accounts at their own addresses, on the deployed shape', () => {
  it('names faults of the table', () => {
    expect(DEPLOYED_FAULTS.filter((name) => !FAULTS.some((f) => f.name === name))).toEqual([]);
  });

  describe.concurrent('each fault alone', () => {
    for (const name of DEPLOYED_FAULTS) {
      const fault = FAULTS.find((f) => f.name === name);
      if (!fault) continue;
      it(`${name} is caught by ${fault.caughtBy.join(', ')}`, async () => {
        const target = await startEmbeddedTarget({ thread: 'main', seed: SEED, shape: 'deployed', faults: [name], sandbox: fault.caughtBy.some((id) => byId.get(id)!.exclusive === true) });
        try {
          const report = await executeRun({ target: target.config, rules: fault.caughtBy.map((id) => byId.get(id)!), seed: SEED, runs: PROFILE_RUNS.quick });
          for (const r of report.results) expect(`${r.id}: ${r.status}`, r.detail).toBe(`${r.id}: ${fault.verdict ?? 'failed'}`);
        } finally {
          await target.close();
        }
      });
    }
  });
});
