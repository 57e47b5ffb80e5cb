/**
 * Seeds: one per run, and one per rule derived from it and the rule id (FNV-1a), so that selecting
 * fewer rules with --only does not change the cases any rule generates.
 */
export function ruleSeed(runSeed: number, ruleId: string): number {
  let h = 0x811c9dc5 ^ (runSeed >>> 0);
  for (const ch of `${runSeed}:${ruleId}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h | 0;
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
