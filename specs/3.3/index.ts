/**
 * §3.3 Message delivery status: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import deliveryStatus from './delivery-status.js';

export default defineSection({
  section: '3.3',
  title: 'Message delivery status',
  defaults: { level: 'must', requires: ['write'] },
  groups: [deliveryStatus],
});
