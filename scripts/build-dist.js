// `npm run build` (and `prepack`): the bundle the package ships in dist/ (bin/bundle.js), so that an installed kit
// never builds into itself.
import { buildDist, DIST } from '../bin/bundle.js';

await buildDist();
process.stdout.write(`built ${DIST}\n`);
