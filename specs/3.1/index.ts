/**
 * §3.1 Credentials: states and transitions: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import credentials from './credentials.js';

export default defineSection({
  section: '3.1',
  title: 'Credentials: states and transitions',
  defaults: { level: 'must', needs: ['one-code'] },
  groups: [credentials],
});
