/**
 * §2.1 Integration: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import integration from './integration.js';

export default defineSection({
  section: '2.1',
  title: 'Integration',
  defaults: { level: 'must', needs: ['fresh-code', 'operator'] },
  groups: [integration],
});
