// `conformance-kit/hook`: verify (or sign) the §5.3 disconnect hook (src/hook/index.ts, docs/sandbox.md).
import { bundledEntry } from '../bin/bundle.js';

const entry = await import(await bundledEntry('hook'));
export const { verifyDisconnectHook, signDisconnectHook, disconnectHookSignature, disconnectHookSigningString, disconnectHookUrl, HOOK_PARAMETERS, HookListener } = entry;
