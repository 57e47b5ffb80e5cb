/**
 * The registry: every section of specs/, in spec order (a section's index.ts lists its groups). A new section is added
 * here and nowhere else; a new group in its section's index.ts.
 */
import type { Rule, SpecSection } from './kit.js';
import s2_1 from './2.1/index.js';
import s2_2 from './2.2/index.js';
import s2_3 from './2.3/index.js';
import s2_4 from './2.4/index.js';
import s2_5 from './2.5/index.js';
import s2_6 from './2.6/index.js';
import s2_7 from './2.7/index.js';
import s2_8 from './2.8/index.js';
import s2_10 from './2.10/index.js';
import s2_11 from './2.11/index.js';
import s3_1 from './3.1/index.js';
import s3_2 from './3.2/index.js';
import s3_3 from './3.3/index.js';
import s4_1 from './4.1/index.js';
import s4_2 from './4.2/index.js';
import s4_3 from './4.3/index.js';
import s5_1 from './5.1/index.js';
import s5_2 from './5.2/index.js';
import s5_3 from './5.3/index.js';
import s6 from './6/index.js';
import s8 from './8/index.js';

export const SPEC_SECTIONS: readonly SpecSection[] = [s2_1, s2_2, s2_3, s2_4, s2_5, s2_6, s2_7, s2_8, s2_10, s2_11, s3_1, s3_2, s3_3, s4_1, s4_2, s4_3, s5_1, s5_2, s5_3, s6, s8];

export function allRules(): readonly Rule[] {
  return SPEC_SECTIONS.flatMap((s) => s.rules);
}
