/**
 * §2.2 Credentials: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import credentials from './credentials.js';

export default defineSection({
  section: '2.2',
  title: 'Credentials',
  defaults: { level: 'must', needs: ['fresh-code'] },
  groups: [credentials],
});
