// `npm run build` (and `prepack`): the bundle the package ships in dist/ (bin/bundle.js), so that an installed kit
// never builds into itself.
import { buildDist, DIST } from '../bin/bundle.js';

await buildDist();
// On stderr: `npm pack --json` prints its JSON on stdout after the prepack script's output.
process.stderr.write(`built ${DIST}\n`);
