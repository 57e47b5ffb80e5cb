/**
 * §2.5 Participant object: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import participant from './participant.js';

export default defineSection({
  section: '2.5',
  title: 'Participant object',
  defaults: { level: 'must', requires: ['write'] },
  groups: [participant],
});
