/**
 * §4.1 Authorization and tokens: one group per sub-heading of the spec.
 */
import { defineSection } from '../kit.js';
import accessGrantingPage from './access-granting-page.js';
import exchange from './exchange.js';

export default defineSection({
  section: '4.1',
  title: 'Authorization and tokens',
  defaults: { level: 'must', needs: ['fresh-code'] },
  groups: [accessGrantingPage, exchange],
});
