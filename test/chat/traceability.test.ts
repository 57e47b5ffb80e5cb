/**
 * The chat traceability table covers everything: every field row of §2.4–§2.11, every field row and endpoint of
 * §4.3 has at least one rule, and every `covers` key of a chat rule names a row that exists.
 */
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { chatEndpoints, chatFieldRows, rulesCovering } from '../../src/docs/traceability-chat.js';
import { specTables } from '../../src/docs/spec-tables.js';

describe('chat traceability', () => {
  const rules = allRules();

  it('finds the nine endpoints of §4.3', () => {
    expect(chatEndpoints().map((e) => e.name)).toEqual([
      'Connect channel', 'Disconnect channel', 'Create chat', 'Send, edit or import a message', 'Send a comment',
      'Update delivery status', 'Get chat history', 'Typing indicator', 'Reaction',
    ]);
  });

  it('gives every field row of §2.4–§2.11 and §4.3 a rule', () => {
    const rows = chatFieldRows();
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((r) => rulesCovering(rules, r.key).length === 0).map((r) => r.key)).toEqual([]);
  });

  it('gives every endpoint of §4.3 a rule', () => {
    expect(chatEndpoints().filter((e) => rulesCovering(rules, `4.3/${e.name}`, true).length === 0).map((e) => e.name)).toEqual([]);
  });

  it('names only rows or endpoints that exist in chat rules\' covers keys', () => {
    const keys = new Set([...specTables().flatMap((t) => t.rows.map((r) => r.key)), ...chatEndpoints().map((e) => `4.3/${e.name}`)]);
    const unknown = rules.filter((r) => r.id.startsWith('chat.')).flatMap((r) => (r.covers ?? []).filter((k) => !keys.has(k)).map((k) => `${r.id}: ${k}`));
    expect(unknown).toEqual([]);
  });
});
