/**
 * §2.10 message.post object (comments): its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import post from './post.js';

export default defineSection({
  section: '2.10',
  title: 'message.post object (comments)',
  defaults: { level: 'must', requires: ['write'] },
  groups: [post],
});
