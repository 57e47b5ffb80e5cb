/**
 * One Chromium for the many short in-process runs of a test file (the faults, the variations): each run would
 * otherwise launch its own, seconds apiece on a loaded machine. Each run still opens its own context (its cookies and
 * storage), as a run of its own would.
 */
import { afterAll } from 'vitest';
import { SharedBrowser } from '../src/browser/launch.js';
import type { TargetConfig } from '../src/model/target.js';
import { browserLaunchOptions } from '../src/steps/browser.js';

type Lent = { readonly browser: () => Promise<SharedBrowser> };

/**
 * `lent` for executeRun, per target: the file's browser, launched when a page rule first asks for it and closed after
 * the file. It is launched with no options, so it is lent only to a target whose own launch would take none (no
 * HOST_RESOLVE, CA_FILE or proxy: `browserLaunchOptions`); any other run launches its own.
 */
export function lentBrowser(): (target: TargetConfig) => Lent | undefined {
  let launched: Promise<SharedBrowser> | undefined;
  afterAll(async () => {
    await (await launched?.catch(() => undefined))?.close();
  });
  const lent: Lent = {
    browser: () => {
      launched ??= SharedBrowser.launch();
      // A failed launch is not kept: the next run tries again, as a run's own resource would.
      launched.catch(() => { launched = undefined; });
      return launched;
    },
  };
  return (target) => (Object.keys(browserLaunchOptions(target)).length === 0 ? lent : undefined);
}
