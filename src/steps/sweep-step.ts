/**
 * A scenario step that sweeps named items: each is observed and judged, every one is sent whatever the others got, and
 * the findings are folded as `sweepRule` folds its named cases (the failures when there are any, else one pass counting
 * them, with the observations and a non_strict case kept). For a scenario whose later part is a sweep over cases known
 * only once earlier steps ran (the lists read after their unfiltered answers were judged).
 */
import type { Judge } from '../model/check.js';
import { labelled } from '../model/check.js';
import type { RuleContext } from '../model/context.js';
import { sweepThenProperty, type Step } from '../model/define.js';
import type { HttpResponse } from '../model/http.js';

export function sweepStep<F, I, S = HttpResponse>(spec: {
  readonly items: (t: RuleContext, fixture: F) => readonly I[] | Promise<readonly I[]>;
  readonly label: (item: I) => string;
  readonly observe: (t: RuleContext, fixture: F, item: I) => Promise<S>;
  readonly expect: (item: I) => readonly Judge<S>[];
  /** Names the sweep's own finding (`52 named cases held`). */
  readonly what: string;
}): Step<F> {
  return {
    async run(t, f) {
      const named = await spec.items(t, f);
      const outcome = await sweepThenProperty(t, {
        named,
        what: spec.what,
        check: async (item) => t.check(await spec.observe(t, f, item), labelled(spec.label(item), spec.expect(item))),
      });
      return [...outcome.findings];
    },
  };
}
