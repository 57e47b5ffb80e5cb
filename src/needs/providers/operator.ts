/**
 * A person at the terminal does what the rule needs done on the account (deactivate or disconnect an installation,
 * regenerate the secret key, revoke a token), one question at a time (src/steps/live-operator.ts asks). In CI or
 * without a terminal the rule is skipped with that reason (the runner normally skips it before it starts).
 */
import { SkipRule } from '../../errors.js';
import type { RuleContext } from '../../model/context.js';
import { answered, OperatorDesk as Desk } from '../../steps/live-operator.js';
import { CATALOGUE } from '../catalogue.js';
import type { OperatorDesk } from '../catalogue.js';
import type { Provider } from './types.js';

/** The run's desk, or the rule is skipped: nobody can be asked (CI, no terminal). */
async function deskFor(t: RuleContext, instruction: string): Promise<Desk> {
  if (t.target.interactive !== true) throw new SkipRule(`needs operator (${instruction}): ${CATALOGUE.operator.gap()}`);
  return t.resource('operator-desk', async () => new Desk({ input: process.stdin, output: process.stderr }));
}

/** The act asked of the operator, whatever else the target offers (a step the control API cannot do). */
export function operatorDesk(t: RuleContext): OperatorDesk {
  return {
    act: async (step) => {
      const desk = await deskFor(t, step.instruction);
      answered(await desk.ask(`${step.instruction}, then press Enter`), step.instruction);
    },
    value: async (step) => {
      const desk = await deskFor(t, step.instruction);
      const text = answered(await desk.ask(`${step.instruction}, then paste ${step.value} and press Enter`), step.instruction);
      if (!text) throw new SkipRule(`the operator gave no ${step.value} (${step.instruction})`);
      if (step.secret) t.masker.add(text);
      return text;
    },
  };
}

export const operatorProvider: Provider = {
  source: 'operator',
  offers: { operator: operatorDesk },
};
