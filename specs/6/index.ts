/**
 * §6 Events: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import events from './events.js';

export default defineSection({
  section: '6',
  title: 'Events',
  defaults: { level: 'must', requires: ['control', 'hook'] },
  groups: [events],
});
