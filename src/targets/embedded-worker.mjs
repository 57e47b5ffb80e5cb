// Entry of the embedded emulator's worker thread when the kit runs from its sources (the tests): the thread loads the
// emulator from the same esbuild bundle the command line uses (bin/bundle.js), rebuilt when a source changed. Node 20
// does not give a worker its parent's module hooks, and loading the sources through tsx took 1.4 s per thread.
// (The command line's own bundle has its emulator thread beside it under this name.)
import { bundledEntry } from '../../bin/bundle.js';

await import(await bundledEntry('embedded-worker'));
