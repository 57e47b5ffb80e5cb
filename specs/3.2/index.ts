/**
 * §3.2 Channel connection: states and transitions: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import channelConnection from './channel-connection.js';

export default defineSection({
  section: '3.2',
  title: 'Channel connection: states and transitions',
  defaults: { level: 'must', requires: ['write'], needs: ['second-channel'] },
  groups: [channelConnection],
});
