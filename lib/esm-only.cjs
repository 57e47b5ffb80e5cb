// `require('conformance-kit/...')`: the package is ES modules only. Its entry points load the kit's bundle with a
// top-level await, which require() cannot wait for; this says so instead of Node's ERR_REQUIRE_ASYNC_MODULE.
const error = new Error(
  'conformance-kit is ESM only: its entry points cannot be loaded with require(). Use `import { startSandbox } from '
  + "'conformance-kit/emulator'` in an ES module (a .mjs/.mts file, or \"type\": \"module\" in package.json), or "
  + "`const { startSandbox } = await import('conformance-kit/emulator')` from CommonJS.",
);
error.code = 'ERR_REQUIRE_ESM';
throw error;
