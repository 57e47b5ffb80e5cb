/**
 * One Chromium for the many short in-process runs of a test file (the faults, the variations): each run would
 * otherwise launch its own, seconds apiece on a loaded machine. Each run still opens its own context (its cookies and
 * storage), as a run of its own would. The browser is launched as a one-origin embedded target's run launches it (no
 * host rules, no CA, no proxy), so it is lent to such runs only.
 */
import { afterAll } from 'vitest';
import { SharedBrowser } from '../src/browser/launch.js';

/** `lent` for executeRun: the file's browser, launched when a page rule first asks for it, closed after the file. */
export function lentBrowser(): { readonly browser: () => Promise<SharedBrowser> } {
  let launched: Promise<SharedBrowser> | undefined;
  afterAll(async () => {
    if (launched) await (await launched).close();
  });
  return {
    browser: () => {
      launched ??= SharedBrowser.launch();
      // A failed launch is not kept: the next run tries again, as a run's own resource would.
      launched.catch(() => { launched = undefined; });
      return launched;
    },
  };
}
