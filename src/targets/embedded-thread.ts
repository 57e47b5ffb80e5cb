/**
 * The emulator thread of an embedded target: starts the emulator instances the kit asked for and answers its calls
 * (issued secrets, fault switches, close) over the worker's port. Everything else goes over HTTP as for any target.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startEmulator, type RunningEmulator } from '../emulator/index.js';
import { emulatorOptions, serializeError, type ThreadAnswer, type ThreadCall, type ThreadReady, type ThreadStart } from './embedded-protocol.js';

const port = parentPort!;
const start = workerData as ThreadStart;

async function answer(emulators: readonly RunningEmulator[], call: ThreadCall): Promise<unknown> {
  switch (call.op) {
    case 'issued-secrets':
      return [...new Set(emulators.flatMap((e) => e.issuedSecrets()))];
    case 'faults-set':
      // Checked on the first before any is changed: an unknown name leaves every instance as it was.
      emulators[0]!.faults.set(call.change);
      for (const e of emulators.slice(1)) e.faults.set(call.change);
      return emulators[0]!.faults.active();
    case 'faults-active':
      return emulators[0]!.faults.active();
    case 'close':
      await Promise.all(emulators.map((e) => e.close()));
      return undefined;
  }
}

try {
  const emulators = await Promise.all(Array.from({ length: start.instances }, () => startEmulator(emulatorOptions(start))));
  port.on('message', (call: ThreadCall) => {
    answer(emulators, call).then(
      (value) => port.postMessage({ id: call.id, ok: true, value } satisfies ThreadAnswer),
      (err: unknown) => port.postMessage({ id: call.id, ok: false, error: serializeError(err) } satisfies ThreadAnswer),
    );
  });
  port.postMessage({ type: 'ready', instances: emulators.map((e) => ({ url: e.url, env: e.env() })) } satisfies ThreadReady);
} catch (err) {
  port.postMessage({ type: 'failed', error: serializeError(err) });
}
