/**
 * §2.3 Token response object: its rules, in one group (the section has no sub-headings).
 */
import { defineSection } from '../kit.js';
import tokenResponse from './token-response.js';

export default defineSection({
  section: '2.3',
  title: 'Token response object',
  defaults: { level: 'must', needs: ['one-code'] },
  groups: [tokenResponse],
});
