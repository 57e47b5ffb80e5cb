/**
 * The table of readings in docs/verdicts.md ("How a statement's wording becomes a verdict"), generated from
 * src/model/readings.ts so that the names the checks cite and the page never drift.
 */
import { OUTCOMES, READING_NAMES, READINGS } from '../model/readings.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function readingsMarkdown(): string {
  return [
    `| reading | applies to | ${OUTCOMES.join(' | ')} |`,
    `|---|---|${OUTCOMES.map(() => '---|').join('')}`,
    ...READING_NAMES.map((name) => {
      const r = READINGS[name];
      return `| \`${name}\`: ${cell(r.title)} | ${cell(r.applies)} | ${OUTCOMES.map((o) => cell(r[o])).join(' | ')} |`;
    }),
  ].join('\n');
}
