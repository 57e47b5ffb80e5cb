/**
 * Generated docs are current: regenerate with `npm run docs` when this fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_BLOCKS, GENERATED_DOCS, GENERATED_ROOT_FILES, withBlock } from '../../src/docs/index.js';

describe('generated docs', () => {
  for (const [name, render] of Object.entries(GENERATED_DOCS)) {
    it(`docs/${name} is up to date (npm run docs)`, () => {
      expect(readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8')).toBe(render());
    });
  }

  for (const [name, render] of Object.entries(GENERATED_ROOT_FILES)) {
    it(`${name} is up to date (npm run docs)`, () => {
      expect(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')).toBe(render());
    });
  }

  for (const block of GENERATED_BLOCKS) {
    it(`the ${block.name} block of ${block.file} is up to date (npm run docs)`, () => {
      const current = readFileSync(new URL(`../../${block.file}`, import.meta.url), 'utf8');
      expect(current).toBe(withBlock(current, block));
    });
  }
});
