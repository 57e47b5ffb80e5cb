// Entry of the embedded emulator's worker thread. Node 20 does not give a worker the module hooks its parent
// registered, so the TypeScript sources are loaded through tsx here as bin/conformance.js does for the main thread.
import { register } from 'tsx/esm/api';

register();
await import('./embedded-thread.ts');
