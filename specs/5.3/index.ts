/**
 * §5.3 Disconnect hook authenticity: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import disconnectHook from './disconnect-hook.js';

export default defineSection({
  section: '5.3',
  title: 'Disconnect hook authenticity',
  defaults: { level: 'must', requires: ['control', 'hook'] },
  groups: [disconnectHook],
});
