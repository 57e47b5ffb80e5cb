/**
 * The deployed shape (src/emulator/shape.ts) under each allowed variation of where things are served (those whose
 * `run.shapes` name it): the whole suite at the quick profile, no rule failed or left unjudged. The deployed shape
 * alone is run by test/configurations/suite.test.ts, through the command line against `conformance emulator`'s default.
 */
import { describe, expect, it } from 'vitest';
import { allRules } from '../../specs/index.js';
import { VARIATIONS } from '../../src/emulator/variations.js';
import type { VariationInfo } from '../../src/emulator/switches.js';
import { untrue } from '../traced-run.js';
import { runUnder } from './suite.js';

const DEPLOYED = (VARIATIONS as readonly VariationInfo[]).filter((v) => v.run?.shapes?.includes('deployed'));

describe('the suite on the deployed shape under each variation of it', () => {
  it('has variations of the deployed shape', () => {
    expect(DEPLOYED.map((v) => v.name)).toContain('chat-origin-own-port');
  });

  describe.concurrent('each variation', () => {
    for (const variation of DEPLOYED) {
      it(`${variation.name}: no rule failed or errored`, async () => {
        const report = await runUnder(variation, undefined, 'deployed');
        expect(report.results.length).toBe(allRules().length);
        expect(report.results.filter((r) => r.status !== 'skipped').length).toBeGreaterThan(allRules().length * 0.9);
        expect(untrue(report)).toEqual([]);
      });
    }
  });
});
