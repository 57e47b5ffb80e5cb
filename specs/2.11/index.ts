/**
 * §2.11 embedded_message object: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import embeddedMessage from './embedded-message.js';

export default defineSection({
  section: '2.11',
  title: 'embedded_message object',
  defaults: { level: 'must', requires: ['write'] },
  groups: [embeddedMessage],
});
