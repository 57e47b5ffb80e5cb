/**
 * Freezes plain objects and arrays at every depth. For values the emulator shares between requests or instances (a
 * parsed query served from the cache, a seeded data set): code that wrote into a shared value would throw, not leak.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
