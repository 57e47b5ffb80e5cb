/**
 * Every setting the kit reads is documented where users look for it: env.example (a line `KEY=` with its comment) and
 * the environment section of docs/design.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_KEYS } from '../../src/targets/config.js';

const envExample = readFileSync(new URL('../../env.example', import.meta.url), 'utf8');
const design = readFileSync(new URL('../../docs/design.md', import.meta.url), 'utf8');
const environmentSection = design.slice(design.indexOf('## 4. Environment'), design.indexOf('## 5.'));

describe('the settings\' documentation', () => {
  it.each(ENV_KEYS)('documents %s in env.example and in docs/design.md §4', (key) => {
    expect(envExample).toMatch(new RegExp(`^${key}=`, 'm'));
    expect(environmentSection).toContain(`\`${key}\``);
  });
});
