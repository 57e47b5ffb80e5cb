/**
 * §2.7 Message object: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import message from './message.js';

export default defineSection({
  section: '2.7',
  title: 'Message object',
  defaults: { level: 'must', requires: ['write'] },
  groups: [message],
});
