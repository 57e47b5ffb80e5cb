/**
 * §5.2 Chat interface signature: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import signature from './signature.js';

export default defineSection({
  section: '5.2',
  title: 'Chat interface signature',
  defaults: { level: 'must' },
  groups: [signature],
});
