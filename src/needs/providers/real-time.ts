/**
 * Time passing in real time, under --profile soak, for a target whose clock cannot be moved: the kit waits from the
 * moment the credential was issued, up to the soak window (src/needs/plan.ts decides whether the wait fits it).
 */
import { inRealTime } from '../../steps/live-clock.js';
import type { Provider } from './types.js';

export const realTimeProvider: Provider = {
  source: 'real-time',
  offers: { clock: () => ({ after: (e, act) => inRealTime(e, act) }) },
};
