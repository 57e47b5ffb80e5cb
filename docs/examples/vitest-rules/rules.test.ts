// docs/examples/vitest-rules/rules.test.ts
// The chat signature rules (§5.2) and the account API's bearer rules, run against the sandbox the global setup
// started: one vitest test per rule, named `[§<section> <level>] <id>: <title>`.
import { inject } from 'vitest';
import { conformanceSuite } from 'conformance-kit/vitest';

conformanceSuite({ settings: inject('crm'), only: '5.2,api.bearer.*' });
