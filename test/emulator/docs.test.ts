import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(new URL('../../docs/control-api.md', import.meta.url), 'utf8');

describe('docs/control-api.md', () => {
  it('points to the generated fault table', () => {
    expect(doc).toContain('(faults.md)');
  });

  it.each([
    'GET /_control`', 'GET /_control/clock`', 'POST /_control/clock`', 'POST /_control/clock/reset`',
    'POST /_control/consent`', 'GET /_control/faults`', 'POST /_control/faults`', 'POST /_control/reset`',
  ])('documents %s', (endpoint) => {
    expect(doc).toContain(`### \`${endpoint}`);
  });
});
