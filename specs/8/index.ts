/**
 * §8 Limits: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import limits from './limits.js';

export default defineSection({
  section: '8',
  title: 'Limits',
  defaults: { level: 'must', requires: ['write'] },
  groups: [limits],
});
