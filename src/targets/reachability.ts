/**
 * Before a remote run: is anything answering at BASE_URL at all? Any HTTP answer counts; only a transport
 * failure means the target cannot be reached (exit 3).
 */
import { UnreachableError } from '../errors.js';
import type { TargetConfig } from '../model/target.js';
import type { HttpClient } from './http.js';
import { TransportError } from '../errors.js';

export async function assertReachable(target: TargetConfig, client: HttpClient): Promise<void> {
  try {
    await client.send({ method: 'GET', url: `${target.baseUrl}/api/v4/account` });
  } catch (err) {
    if (err instanceof TransportError) {
      throw new UnreachableError(`cannot reach the target at BASE_URL ${target.baseUrl}: ${err.reason}`);
    }
    throw err;
  }
}
