/**
 * A rule's detail, findings and skip reason are plain text: the browser driver's messages (Playwright's errors and call
 * logs) carry terminal colour codes, which report.html, junit.xml and a CI log would show as litter.
 */
import { describe, expect, it } from 'vitest';
import { rule } from '../../src/model/define.js';
import { fail, outcomeOf } from '../../src/model/outcome.js';
import { defineSpec, type Rule, type RuleDraft } from '../../src/model/rule.js';
import { Precondition } from '../../src/errors.js';
import { runRule, skippedResult } from '../../src/runner/run-rule.js';
import { Masker } from '../../src/secrets/mask.js';
import { HttpClient } from '../../src/targets/http.js';

/** What Playwright writes: `page.goto: net::ERR_CONNECTION_REFUSED` with its call log dimmed and coloured. */
const COLOURED = '\u001b[31mpage.goto: net::ERR_CONNECTION_REFUSED\u001b[39m\n\u001b[2mCall log:\u001b[22m\n\u001b[2m  - navigating to "http://x/"\u001b[22m';
const PLAIN = 'page.goto: net::ERR_CONNECTION_REFUSED\nCall log:\n  - navigating to "http://x/"';

const complete = (draft: RuleDraft): Rule => defineSpec({ section: '9', title: 'plain details', level: 'must', rules: [draft] }).rules[0]!;

async function run(r: Rule) {
  const client = new HttpClient();
  try {
    return await runRule(r, {
      target: { kind: 'remote', baseUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', chatUrl: 'http://127.0.0.1:9', credentials: { clientId: 'c', clientSecret: 's', redirectUri: 'https://r.example/cb' }, capabilities: [] },
      client, control: undefined, masker: new Masker(), seed: 1, runs: 1, runId: 'run-test',
    });
  } finally {
    await client.close();
  }
}

describe('details carry no terminal colour codes', () => {
  it('in the detail of a rule the kit could not finish', async () => {
    const result = await run(complete(rule({ id: 'plain.errored', title: 'throws a coloured message' }, async () => { throw new Precondition(COLOURED); })));
    expect(result.status).toBe('errored');
    expect(result.detail).toBe(`precondition not met: ${PLAIN}`);
  });

  it('in the findings and detail of a rule that failed', async () => {
    const result = await run(complete(rule({ id: 'plain.failed', title: 'fails with a coloured finding' }, async () => outcomeOf([fail('page', COLOURED)]))));
    expect(result.status).toBe('failed');
    expect(result.detail).not.toContain('\u001b');
    expect(result.findings?.[0]?.detail).toBe(PLAIN);
  });

  it('in a skip reason', () => {
    const r = complete(rule({ id: 'plain.skipped', title: 'skipped' }, async () => outcomeOf([])));
    expect(skippedResult(r, `requires capability \`browser\`: ${COLOURED}`).detail).toBe(`requires capability \`browser\`: ${PLAIN}`);
  });
});
