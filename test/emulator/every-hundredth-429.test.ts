/**
 * The `every-hundredth-429` variation (src/emulator/traffic.ts): every hundredth request to the service, whichever of
 * its interfaces it reaches (the page's navigations too), is answered 429 with Retry-After before anything of it is
 * done; the control API is no part of the service and is neither counted nor limited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

let emulator: RunningEmulator | undefined;
afterEach(() => emulator?.close());

describe('every-hundredth-429', () => {
  it('answers the 100th and 200th service requests 429 with Retry-After, counting the page and the chat interface, not the control API', async () => {
    emulator = await startEmulator({ variations: ['every-hundredth-429'] });
    const url = emulator.url;
    const paths = ['/api/v4/account', '/oauth?client_id=nobody', '/v2/origin/custom/nobody/connect'];
    const statuses: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const res = await fetch(`${url}${paths[i % paths.length]}`);
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
      await res.arrayBuffer();
      // A control call between any two service requests changes nothing of the count.
      if (i % 10 === 0) expect((await fetch(`${url}/_control/traffic`)).status).toBe(200);
    }
    expect(statuses.flatMap((s, i) => (s === 429 ? [i + 1] : []))).toEqual([100, 200]);
    // In the cycle api, page, chat: the 100th reached the account API, the 200th the page.
    expect(paths[99 % paths.length]).toBe('/api/v4/account');
    expect(paths[199 % paths.length]).toBe('/oauth?client_id=nobody');
    const traffic = (await (await fetch(`${url}/_control/traffic`)).json()) as { limited: number; by_interface: Record<string, { limited: number }> };
    expect([traffic.limited, traffic.by_interface.api!.limited, traffic.by_interface.page!.limited, traffic.by_interface.chat!.limited]).toEqual([2, 1, 1, 0]);
  });

  it('is off by default', async () => {
    emulator = await startEmulator();
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i += 1) {
      const res = await fetch(`${emulator.url}/api/v4/account`);
      statuses.add(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.has(429)).toBe(false);
  });
});
