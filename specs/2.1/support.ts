/**
 * What the rules of §2.1 share: fixtures, case tables and the makers of rule families.
 */
import { type ReceivedHook, type TokenPair } from '../kit.js';

export interface Secrets {
  readonly original: string;
  readonly fresh: string;
}

export interface RegeneratedRefresh {
  readonly pair: TokenPair;
  readonly original: string;
  readonly fresh: string;
}

export interface RegeneratedHook {
  readonly original: string;
  readonly fresh: string;
  hook: ReceivedHook | undefined;
}
