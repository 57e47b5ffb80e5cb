// docs/examples/start-sandbox/start.ts
import { startSandbox } from 'conformance-kit/emulator';

const sandbox = await startSandbox();                 // 127.0.0.1, a free port
console.log(sandbox.url);                             // http://127.0.0.1:<port>
const token = sandbox.settings.LONG_LIVED_TOKEN;      // the settings `conformance emulator` prints, secrets in full
sandbox.faults.enable('token-type-mac');              // see `npx conformance faults` or FAULTS
console.log(sandbox.faults.active());                 // [ 'token-type-mac' ]
sandbox.variations.enable('json-members-reordered');  // a behaviour the spec allows (docs/variations.md)
await sandbox.control('POST', '/clock', { advance_seconds: 86_400 });  // anything of docs/control-api.md
const account = await fetch(`${sandbox.url}/api/v4/account`, { headers: { authorization: `Bearer ${token}` } });
console.log(account.status);                          // 200
await sandbox.reset();                                // back to the state the settings were made in
console.log(sandbox.faults.active());                 // []
await sandbox.close();
