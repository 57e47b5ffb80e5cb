/**
 * specs/service.md is the spec the kit was built from (its SHA-256 goes into certificates); it must equal the
 * shared spec whenever that is beside the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { specRows, specTables } from '../../src/docs/spec-tables.js';
import { SPEC_PATH } from '../../src/paths.js';

const shared = new URL('../../../shared/spec/service.md', import.meta.url);

describe('the spec copy', () => {
  it.runIf(existsSync(shared))('equals ../shared/spec/service.md', () => {
    expect(readFileSync(SPEC_PATH, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });

  it('parses the spec tables into keyed rows', () => {
    const keys = specRows(['4.2']).map((r) => r.key);
    expect(keys).toContain('4.2/api/v4/leads filter[price]');
    expect(specRows(['4.3']).map((r) => r.key)).toContain('4.3/Connect channel/account_id');
    expect(keys).toContain('4.2/filter[id]');
    expect(specRows(['2.5']).map((r) => r.key)).toEqual(['2.5/id', '2.5/ref_id', '2.5/name', '2.5/avatar', '2.5/profile', '2.5/profile_link']);
    expect(specTables().length).toBeGreaterThan(30);
  });
});
