/**
 * §4.2 List filtering: one group per sub-heading of the spec.
 */
import { defineSection } from '../kit.js';
import shapes from './shapes.js';
import meaning from './meaning.js';
import open from './open.js';
import rights from './rights.js';

export default defineSection({
  section: '4.2',
  title: 'List filtering',
  defaults: { level: 'must', needs: ['access-token'] },
  groups: [shapes, meaning, rights, open],
});
