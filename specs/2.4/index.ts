/**
 * §2.4 Channel connection (scope): its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import channelConnection from './channel-connection.js';

export default defineSection({
  section: '2.4',
  title: 'Channel connection (scope)',
  defaults: { level: 'must' },
  groups: [channelConnection],
});
