/**
 * §2.6 Source object: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import source from './source.js';

export default defineSection({
  section: '2.6',
  title: 'Source object',
  defaults: { level: 'must', requires: ['write'], needs: ['counters'] },
  groups: [source],
});
