/**
 * §5.1 Account API: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import accountApi from './account-api.js';

export default defineSection({
  section: '5.1',
  title: 'Account API',
  defaults: { level: 'must' },
  groups: [accountApi],
});
