/**
 * junit.xml: one <testsuite> per spec section, one <testcase> per rule. Verdict mapping:
 * failed → <failure>, errored → <error>, skipped → <skipped> (but skipped behind a refused step → <error type="unjudged">:
 * an unjudged rule is not a green run), non_strict and informational → passing testcase with <system-out> naming the
 * verdict, passed → plain testcase.
 */
import { writeFile } from 'node:fs/promises';
import type { Report, RuleResult } from '../model/result.js';
import { cut, groupBySection } from './sections.js';

/** Characters XML 1.0 does not allow (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Replaces characters invalid in XML 1.0 by U+FFFD. */
export function xmlSafe(value: unknown): string {
  const s = value === undefined || value === null ? '' : String(value);
  return s.replace(INVALID_XML, '\ufffd');
}

/** Escapes element text. */
export function xmlText(value: unknown): string {
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value (double-quoted); line breaks and tabs are kept as character references. */
export function xmlAttr(value: unknown): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function seconds(ms: number | undefined): string {
  const n = typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : 0;
  return (n / 1000).toFixed(3);
}

interface Counts { tests: number; failures: number; errors: number; skipped: number; timeMs: number }

function counts(results: readonly RuleResult[]): Counts {
  const c: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, timeMs: 0 };
  for (const r of results) {
    c.tests += 1;
    if (r.status === 'failed') c.failures += 1;
    else if (r.status === 'errored' || r.blocked_by !== undefined) c.errors += 1;
    else if (r.status === 'skipped') c.skipped += 1;
    if (typeof r.duration_ms === 'number' && r.duration_ms > 0) c.timeMs += r.duration_ms;
  }
  return c;
}

function countAttrs(c: Counts, timeMs = c.timeMs): string {
  return `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(timeMs)}"`;
}

/** The run's wall time (finished_at − started_at): the rules run side by side, so the sum of their times is not it. */
function wallTimeMs(report: Report, fallback: number): number {
  const ms = Date.parse(report.finished_at) - Date.parse(report.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

/** First line of the detail, cut, for the `message` attribute. */
function message(detail: string): string {
  const first = detail.split(/\r?\n/, 1)[0] ?? '';
  return cut(first, 300);
}

function extraOutput(r: RuleResult): string[] {
  const lines: string[] = [];
  if (r.reading) lines.push(`reading: ${r.reading}`);
  if (r.flaky) lines.push('flaky: failed, then passed on an immediate re-run with the same seed');
  if (r.reproduction) lines.push(`reproduction: ${r.reproduction}`);
  if (r.property?.replay) lines.push(`replay: ${r.property.replay}`);
  return lines;
}

function testcase(r: RuleResult, indent: string, regressed: boolean): string {
  const detail = String(r.detail ?? '');
  const open = `${indent}<testcase classname="${xmlAttr(r.section)}" name="${xmlAttr(`${r.id}: ${r.title}`)}" time="${seconds(r.duration_ms)}"`;
  const inner: string[] = [];
  const out = extraOutput(r);
  switch (r.status) {
    case 'failed':
      // A regression against --baseline is a failure of its own kind: it held in the baseline report.
      inner.push(regressed
        ? `<failure message="${xmlAttr(message(`regression against the baseline: ${detail}`))}" type="regression">${xmlText(`regression: held in the baseline report, fails now\n${detail}`)}</failure>`
        : `<failure message="${xmlAttr(message(detail))}" type="failed">${xmlText(detail)}</failure>`);
      break;
    case 'errored':
      inner.push(`<error message="${xmlAttr(message(detail))}" type="errored">${xmlText(detail)}</error>`);
      break;
    case 'skipped':
      inner.push(r.blocked_by !== undefined
        ? `<error message="${xmlAttr(message(detail))}" type="unjudged">${xmlText(detail)}</error>`
        : `<skipped message="${xmlAttr(detail)}"/>`);
      break;
    case 'non_strict':
    case 'informational':
      out.unshift(`verdict: ${r.status}`, `detail: ${detail}`);
      break;
    default:
      break;
  }
  if (r.status !== 'passed' && r.status !== 'skipped' && out.length > 0) {
    inner.push(`<system-out>${xmlText(out.join('\n'))}</system-out>`);
  }
  if (inner.length === 0) return `${open}/>`;
  return `${open}>\n${inner.map((l) => `${indent}  ${l}`).join('\n')}\n${indent}</testcase>`;
}

export function renderJunit(report: Report): string {
  const results = report.results ?? [];
  const name = `${report.suite?.name ?? 'conformance'} ${report.suite?.version ?? ''}`.trim();
  const all = counts(results);
  const regressions = new Set(report.baseline?.regressions ?? []);
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(name)}" ${countAttrs(all, wallTimeMs(report, all.timeMs))} timestamp="${xmlAttr(report.started_at)}">`,
  ];
  groupBySection(results).forEach((group, i) => {
    lines.push(
      `  <testsuite id="${i}" name="${xmlAttr(`§${group.section} ${name}`)}" ${countAttrs(counts(group.results))} timestamp="${xmlAttr(report.started_at)}">`,
      '    <properties>',
      `      <property name="seed" value="${xmlAttr(report.seed)}"/>`,
      `      <property name="target" value="${xmlAttr(report.target?.kind)}"/>`,
      `      <property name="base_url" value="${xmlAttr(report.target?.base_url)}"/>`,
      '    </properties>',
    );
    for (const r of group.results) lines.push(testcase(r, '    ', regressions.has(r.id)));
    lines.push('  </testsuite>');
  });
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

export async function writeJunitReport(report: Report, path: string): Promise<void> {
  await writeFile(path, renderJunit(report), 'utf8');
}
