/**
 * §5.1 Account API: its rules, and those that probe each endpoint of the catalogue alike.
 */
import { defineSection } from '../kit.js';
import accountApi from './account-api.js';
import everyPlace from './every-place.js';

export default defineSection({
  section: '5.1',
  title: 'Account API',
  defaults: { level: 'must' },
  groups: [accountApi, everyPlace],
});
