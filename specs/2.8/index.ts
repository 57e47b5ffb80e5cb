/**
 * §2.8 shared_post object: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import sharedPost from './shared-post.js';

export default defineSection({
  section: '2.8',
  title: 'shared_post object',
  defaults: { level: 'must', requires: ['write'] },
  groups: [sharedPost],
});
