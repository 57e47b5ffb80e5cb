/**
 * summary.md: a short Markdown page for CI step summaries (GitHub's limit is 1 MiB; we stay under 64 KB).
 */
import { writeFile } from 'node:fs/promises';
import type { Report, RuleResult, StatementJudgement } from '../model/result.js';
import type { Verdict } from '../model/outcome.js';
import { VERDICT_ORDER, compareSections, cut, failsRun, isStrict, regressionsOf } from './sections.js';
import { CAUSE_WORDS, JUDGEMENTS, JUDGEMENT_WORDS, countCauses, countJudgements, statementWhy } from './statements.js';

/** Budget in UTF-8 bytes for the whole summary. */
export const SUMMARY_LIMIT = 60 * 1024;
const DETAIL_MAX = 200;

const EMOJI: Record<Verdict, string> = {
  passed: '🟢', failed: '🔴', non_strict: '🟡', informational: '🔵', skipped: '⚪', errored: '🟣',
};

/** Escapes text for a Markdown table cell: pipes, line breaks, and HTML-significant characters. */
export function mdCell(value: unknown, max?: number): string {
  let s = value === undefined || value === null ? '' : String(value);
  s = s.replace(/\s*[\r\n]+\s*/g, ' ');
  if (max !== undefined) s = cut(s, max);
  return s
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, '\\`')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
}

const PROBLEM_RANK: Partial<Record<Verdict, number>> = { failed: 0, errored: 1, non_strict: 2 };
/** A rule skipped behind a refused step is unjudged like an errored one, and listed with it. */
const problemRank = (r: RuleResult): number | undefined => (r.status === 'skipped' && r.blocked_by ? PROBLEM_RANK.errored : PROBLEM_RANK[r.status]);
const LEVEL_RANK: Record<string, number> = { must: 0, should: 1, info: 2 };

export function renderSummary(report: Report): string {
  const results = report.results ?? [];
  const strict = isStrict(report.options);
  const failing = results.filter((r) => failsRun(r, strict));
  const regressions = regressionsOf(report);
  // Against a baseline the run's verdict is its regressions (exit code, docs/design.md §3): they head the page.
  const ok = report.baseline ? !regressions.some((r) => failsRun(r, strict)) : failing.length === 0;
  const name = `${report.suite?.name ?? 'Conformance'} ${report.suite?.version ?? ''}`.trim();
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const verdict = report.baseline
    ? `${regressions.length === 0 ? 'no regression' : plural(regressions.length, 'regression')} against the baseline (${failing.length} failed ${strict ? '' : 'must '}rule${failing.length === 1 ? '' : 's'} in all)`
    : ok ? `no failed ${strict ? '' : 'must '}rule` : `${failing.length} failed ${strict ? '' : 'must '}rule${failing.length === 1 ? '' : 's'}`;
  const notSelected = report.not_selected?.length ?? 0;
  const parts: string[] = [];
  parts.push(
    `# ${ok ? '✅' : '❌'} ${mdCell(name)}: ${verdict}${report.incomplete ? ' (incomplete run)' : ''}`,
    '',
    `Target **${mdCell(report.target?.kind)}** ${mdCell(report.target?.base_url)} · seed ${mdCell(report.seed)} · ${mdCell(report.started_at)} → ${mdCell(report.finished_at)} · ${results.length} rules${notSelected > 0 ? ` selected (${notSelected} not selected)` : ''}${strict ? ' · strict' : ''}`,
    '',
    ...runFacts(report),
  );
  if (regressions.length > 0) {
    parts.push(
      `## Regressions against the baseline (${regressions.length})`, '',
      'Rules that held in the baseline report and fail now.', '',
      '| id | level | section | detail |', '|---|---|---|---|',
      ...regressions.slice(0, 100).map((r) => `| ${mdCell(r.id)} | ${mdCell(r.level)} | §${mdCell(r.section)} | ${mdCell(r.detail, DETAIL_MAX)} |`),
      ...(regressions.length > 100 ? ['', `… and ${regressions.length - 100} more (see report.html)`] : []),
      '',
    );
  }
  parts.push(
    '| verdict | count |',
    '|---|---:|',
    ...VERDICT_ORDER.map((v) => `| ${EMOJI[v]} ${v} | ${report.summary?.[v] ?? 0} |`),
    '',
  );
  let used = bytes(parts.join('\n'));

  const problems = results
    .filter((r) => problemRank(r) !== undefined)
    .sort((a, b) =>
      (problemRank(a) ?? 9) - (problemRank(b) ?? 9)
      || (LEVEL_RANK[a.level] ?? 9) - (LEVEL_RANK[b.level] ?? 9)
      || compareSections(a.section, b.section)
      || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const skipped = results.filter((r) => r.status === 'skipped' && !r.blocked_by);
  // Reserve room for the skipped and statement sections so a flood of failures does not crowd them out entirely.
  const statements = report.statements ?? [];
  const statementsReserve = statements.length > 0 ? 12 * 1024 : 0;
  const skippedReserve = (skipped.length > 0 ? 6 * 1024 : 0) + statementsReserve;

  if (problems.length > 0) {
    const head = ['## Failed, unjudged and non-strict rules', '', '| verdict | id | level | section | detail |', '|---|---|---|---|---|'];
    const rows = rowsWithin(problems, (r) => `| ${EMOJI[r.status]} ${r.status}${r.flaky ? ' (flaky)' : ''}${r.blocked_by ? ` behind ${mdCell(r.blocked_by)}` : ''} | ${mdCell(r.id)} | ${mdCell(r.level)} | §${mdCell(r.section)} | ${mdCell(r.detail, DETAIL_MAX)} |`,
      SUMMARY_LIMIT - skippedReserve - used - bytes(head.join('\n')) - 200);
    const block = [...head, ...rows, ''].join('\n');
    parts.push(block);
    used += bytes(block) + 1;
  }

  if (skipped.length > 0) {
    const byReason = new Map<string, number>();
    for (const r of skipped) {
      const reason = String(r.detail ?? '').trim() || '(no reason given)';
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
    const groups = [...byReason.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const head = [`## Skipped rules (${skipped.length})`, '', '| reason | rules |', '|---|---:|'];
    const rows = rowsWithin(groups, ([reason, n]) => `| ${mdCell(reason, DETAIL_MAX)} | ${n} |`,
      SUMMARY_LIMIT - statementsReserve - used - bytes(head.join('\n')) - 200);
    const block = [...head, ...rows, ''].join('\n');
    parts.push(block);
    used += bytes(block) + 1;
  }
  if (statements.length > 0) parts.push(statementsBlock(statements, SUMMARY_LIMIT - used - 400));

  parts.push('Full details: `report.html` (per-rule exchanges and reproductions), `report.json`, `junit.xml`.', '');
  return parts.join('\n');
}

/** The run's configuration, credentials and interruption, when the report carries them. */
function runFacts(report: Report): string[] {
  const lines: string[] = [];
  if (report.configuration) lines.push(`Configuration **${mdCell(report.configuration.name)}**${report.configuration.title ? `: ${mdCell(report.configuration.title)}` : ''}`);
  if (report.credentials) lines.push(`The run's access token: **${mdCell(report.credentials.access_token)}** · credentials offered: ${mdCell(report.credentials.kinds.join(', ') || 'none')}`);
  if (report.incomplete) {
    const i = report.interruption;
    lines.push(`⚠️ **Incomplete run**${i ? `: stopped by ${mdCell(i.signal)} at ${mdCell(i.at)}; ${i.not_run.length} rule(s) not run, ${i.abandoned.length} abandoned` : ''}`);
  }
  return lines.flatMap((l) => [l, '']);
}

/** The statements of the spec and what this run judged of them: counts, then those not judged or judged in part. */
function statementsBlock(statements: readonly StatementJudgement[], budget: number): string {
  const counts = countJudgements(statements);
  const head = [
    `## Statements of the spec (${statements.length})`, '',
    '| judgement | statements |', '|---|---:|',
    ...JUDGEMENTS.map((j) => `| ${JUDGEMENT_WORDS[j]} | ${counts[j]} |`), '',
  ];
  const causes = countCauses(statements);
  if (causes.length > 0) head.push('| not judged because | statements |', '|---|---:|', ...causes.map(([c, n]) => `| ${mdCell(CAUSE_WORDS[c])} | ${n} |`), '');
  const open = statements.filter((s) => s.judgement === 'none' || s.judgement === 'partial')
    .sort((a, b) => (a.judgement === b.judgement ? 0 : a.judgement === 'none' ? -1 : 1) || compareSections(a.section, b.section));
  if (open.length === 0) return [...head, ''].join('\n');
  head.push('| statement | § | judgement | what was left, and why |', '|---|---|---|---|');
  const rows = rowsWithin(open, (s) => `| ${mdCell(s.id)} | §${mdCell(s.section)} | ${JUDGEMENT_WORDS[s.judgement]} | ${mdCell(statementWhy(s), DETAIL_MAX)} |`,
    budget - bytes(head.join('\n')));
  return [...head, ...rows, ''].join('\n');
}

/** Renders rows while they fit in `budget` bytes; the rest become a "… and N more" line. */
function rowsWithin<T>(items: readonly T[], row: (item: T) => string, budget: number): string[] {
  const rows: string[] = [];
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    const line = row(items[i] as T);
    const size = bytes(line) + 1;
    if (used + size > budget - 80) {
      rows.push('', `… and ${items.length - i} more (see report.html)`);
      break;
    }
    rows.push(line);
    used += size;
  }
  return rows;
}

function bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export async function writeSummary(report: Report, path: string): Promise<void> {
  await writeFile(path, renderSummary(report), 'utf8');
}

/** Whether the run passes under the report's own policy (no failed must rule; with `strict`, no failed rule). */
export function runPassed(report: Report): boolean {
  const strict = isStrict(report.options);
  return !(report.results ?? []).some((r: RuleResult) => failsRun(r, strict));
}
