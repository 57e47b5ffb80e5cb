/**
 * summary.md: a short Markdown page for CI step summaries (GitHub's limit is 1 MiB; we stay under 64 KB).
 */
import { writeFile } from 'node:fs/promises';
import type { Report, RuleResult } from '../model/result.js';
import type { Verdict } from '../model/outcome.js';
import { VERDICT_ORDER, compareSections, cut, failsRun, isStrict } from './sections.js';

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
  const ok = failing.length === 0;
  const name = `${report.suite?.name ?? 'Conformance'} ${report.suite?.version ?? ''}`.trim();
  const parts: string[] = [];
  parts.push(
    `# ${ok ? '✅' : '❌'} ${mdCell(name)}: ${ok
      ? `no failed ${strict ? '' : 'must '}rule`
      : `${failing.length} failed ${strict ? '' : 'must '}rule${failing.length === 1 ? '' : 's'}`}`,
    '',
    `Target **${mdCell(report.target?.kind)}** ${mdCell(report.target?.base_url)} · seed ${mdCell(report.seed)} · ${mdCell(report.started_at)} → ${mdCell(report.finished_at)} · ${results.length} rules${strict ? ' · strict' : ''}`,
    '',
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
  // Reserve room for the skipped section so a flood of failures does not crowd it out entirely.
  const skippedReserve = skipped.length > 0 ? 6 * 1024 : 0;

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
      SUMMARY_LIMIT - used - bytes(head.join('\n')) - 200);
    parts.push([...head, ...rows, ''].join('\n'));
  }

  parts.push('Full details: `report.html` (per-rule exchanges and reproductions), `report.json`, `junit.xml`.', '');
  return parts.join('\n');
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
