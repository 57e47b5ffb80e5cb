/**
 * The run's hook receiver (capability `hook`): the kit's listener on HOOK_LISTEN (the emulator: a free loopback port),
 * registered as the integration's disconnect hook URL through the control API, shared by the rules of a run.
 */
import type { ControlApi } from '../model/control.js';
import type { HookInbox } from '../model/context.js';
import type { TargetConfig } from '../model/target.js';
import { HookListener } from '../hook/listener.js';

export async function startHookInbox(target: Pick<TargetConfig, 'hookListen'>, control: ControlApi): Promise<HookInbox> {
  const listener = await HookListener.start(target.hookListen);
  try {
    await control.call('POST', '/hook-url', { hook_url: listener.url });
  } catch (err) {
    await listener.close();
    throw err;
  }
  return listener;
}
