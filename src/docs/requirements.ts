/**
 * The requirement inventory (docs/requirements.md): coverage per spec section, the work list of gaps by theme, then
 * every statement with the rules that check it. Built from specs/requirements/ and the rule registry's ids only, so a
 * rule's title or reading can change without touching this page.
 */
import { readFileSync } from 'node:fs';
import { allRules } from '../../specs/index.js';
import {
  COVERAGES, coverageOf, GAP_THEMES, GOVERNS, OUTCOMES, outcomesOf, READING_NAMES, READINGS, REQUIREMENTS, type Coverage, type GapTheme,
  type Requirement,
} from '../../specs/requirements/index.js';
import { NONE } from '../model/readings.js';
import { FAILING_FAULTS } from '../emulator/faults.js';
import { compareSections } from '../report/sections.js';
import { SPEC_PATH } from '../paths.js';
import { committedReach, pairReached, PLACE_KINDS, placePairs, type PlacePair } from './places.js';

/** Section number → heading text, from the spec's own headings; `0` is the preamble before §1. */
export function specSectionTitles(text = readFileSync(SPEC_PATH, 'utf8')): Map<string, string> {
  const titles = new Map<string, string>([['0', 'Preamble']]);
  for (const m of text.matchAll(/^#{2,3} (\d+(?:\.\d+)*)\.? (.+)$/gm)) titles.set(m[1]!, m[2]!.trim());
  return titles;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (id: string) => `\`${id}\``;

function counts(list: readonly Requirement[]): Record<Coverage, number> {
  const out = Object.fromEntries(COVERAGES.map((c) => [c, 0])) as Record<Coverage, number>;
  for (const r of list) out[coverageOf(r)] += 1;
  return out;
}

/**
 * The wrong answers proven caught for a statement: the faults whose catching rules (those the fault is proven to fail,
 * not those it makes only non_strict) include a rule that checks the statement. Derived, so it cannot drift.
 */
export function faultsOf(r: Requirement): string[] {
  const rules = new Set(r.rules ?? []);
  return FAILING_FAULTS.filter((f) => f.caughtBy.some((id) => rules.has(id))).map((f) => f.name);
}

function trace(r: Requirement): string {
  switch (coverageOf(r)) {
    case 'covered': return (r.rules ?? []).map(code).join(', ');
    case 'partial': return `${(r.rules ?? []).map(code).join(', ')}; **partial**: ${r.partial}`;
    case 'gap': return `**gap**: ${r.gap}`;
    case 'untestable': return `*untestable*: ${r.untestable}`;
  }
}

/**
 * The statement's reading: its kind (and further readings), the review rows it answers, then every outcome class the
 * reading fills; an outcome in the statement's own words is in bold, one taken from the reading's defaults is plain.
 */
function reading(r: Requirement): string {
  const head = [code(r.reading.kind), ...(r.reading.also ?? []).map((a) => `+ ${code(a)}`)].join(' ');
  const review = r.reading.review === undefined ? '' : ` (review ${r.reading.review})`;
  const outcomes = outcomesOf(r);
  const lines = OUTCOMES.filter((o) => outcomes[o] !== NONE)
    .map((o) => (r.reading[o] === undefined ? `${o}: ${outcomes[o]}` : `**${o}**: ${outcomes[o]}`));
  return [`${head}${review}`, ...lines].join('<br>');
}

function readingCounts(): string[] {
  return [
    '| reading | statements | must | should | info | with their own outcome text | as a further reading |',
    '|---|---|---|---|---|---|---|',
    ...READING_NAMES.map((name) => {
      const list = REQUIREMENTS.filter((r) => r.reading.kind === name);
      const level = (l: string) => list.filter((r) => r.level === l).length;
      const own = list.filter((r) => OUTCOMES.some((o) => r.reading[o] !== undefined)).length;
      const further = REQUIREMENTS.filter((r) => r.reading.also?.includes(name)).length;
      return `| ${code(name)}: ${READINGS[name].title} | ${list.length} | ${level('must')} | ${level('should')} | ${level('info')} | ${own} | ${further} |`;
    }),
    `| **all** | **${REQUIREMENTS.length}** | | | | **${REQUIREMENTS.filter((r) => OUTCOMES.some((o) => r.reading[o] !== undefined)).length}** | |`,
  ];
}

function bySection(list: readonly Requirement[]): Map<string, Requirement[]> {
  const map = new Map<string, Requirement[]>();
  for (const r of list) map.set(r.section, [...(map.get(r.section) ?? []), r]);
  return new Map([...map].sort(([a], [b]) => compareSections(a, b)));
}

function coverageTable(sections: Map<string, Requirement[]>, titles: Map<string, string>): string[] {
  const total = counts(REQUIREMENTS);
  return [
    '| § | section | statements | covered | partial | gap | untestable |',
    '|---|---|---|---|---|---|---|',
    ...[...sections].map(([s, list]) => {
      const c = counts(list);
      return `| ${s} | ${cell(titles.get(s) ?? '')} | ${list.length} | ${c.covered} | ${c.partial} | ${c.gap} | ${c.untestable} |`;
    }),
    `| | **all** | **${REQUIREMENTS.length}** | **${total.covered}** | **${total.partial}** | **${total.gap}** | **${total.untestable}** |`,
  ];
}

function workList(): string[] {
  const lines: string[] = [];
  for (const theme of Object.keys(GAP_THEMES) as GapTheme[]) {
    const items = REQUIREMENTS.filter((r) => r.theme === theme).sort((a, b) => compareSections(a.section, b.section));
    if (items.length === 0) continue;
    const gaps = items.filter((r) => coverageOf(r) === 'gap');
    const partial = items.filter((r) => coverageOf(r) === 'partial');
    lines.push(`### ${GAP_THEMES[theme]} (${gaps.length} gap${gaps.length === 1 ? '' : 's'}, ${partial.length} partial)`, '');
    for (const r of gaps) lines.push(`- ${code(r.id)} (§${r.section}, ${r.level}, needs ${r.needs.join(', ')}): ${r.gap}`);
    for (const r of partial) lines.push(`- ${code(r.id)} (§${r.section}, ${r.level}, partial in ${(r.rules ?? []).map(code).join(', ')}): ${r.partial}`);
    lines.push('');
  }
  return lines;
}

/** How many testable must and should statements have a fault proven caught, and how many faults each has. */
function faultCoverage(): string {
  const judged = REQUIREMENTS.filter((r) => r.level !== 'info' && coverageOf(r) !== 'untestable' && coverageOf(r) !== 'gap');
  const without = judged.filter((r) => faultsOf(r).length === 0);
  const one = judged.filter((r) => faultsOf(r).length === 1).length;
  return `Of ${judged.length} testable \`must\` and \`should\` statements, ${judged.length - without.length} have at least one (${one} exactly one), and ${without.length} none yet${without.length > 0 ? `: ${without.map((r) => code(r.id)).join(', ')}` : ''}.`;
}

/** The per-section coverage table alone, for the README. */
export function requirementsCoverageMarkdown(): string {
  return coverageTable(bySection(REQUIREMENTS), specSectionTitles()).join('\n');
}

/** The places table: per statement that governs several places, each place and the statement's rules that reach it. */
function placesTable(): string[] {
  const pairs = placePairs(committedReach());
  const reached = pairs.filter(pairReached).length;
  const excused = pairs.filter((p) => !pairReached(p) && p.unreached !== undefined).length;
  // The count before issue 39: a place counted as reached when any one rule of the statement reached it.
  const anyOne = pairs.filter((p) => p.reachedBy.length > 0).length;
  const by = (p: PlacePair) => `${p.reachedBy.map(code).join(', ')}${p.cases > 1 ? ` (each of ${p.cases} cases)` : ''}`;
  const cellOf = (p: PlacePair) => {
    if (pairReached(p)) return by(p);
    const why = p.unreached === undefined ? '' : `*not reached*: ${cell(p.unreached)}`;
    if (p.reachedBy.length === 0) return why || '**none**';
    return `${why || '**not by every case**'}; missed by ${p.missing.map(code).join(', ')}; reached by ${p.reachedBy.map(code).join(', ')}`;
  };
  const row = (p: PlacePair) => `| ${code(p.statement)} | ${p.place} | ${cellOf(p)} |`;
  return [
    `The places a statement governs come from the protocol (\`src/protocol/places.ts\`: the grants, the endpoints that take a
bearer and the later page of each list, every route with each class of answer, the chat routes, the history pages); which
kind of place each statement speaks of is \`specs/requirements/places.ts\`. Which places a rule reaches is read from a
traced quick run against the emulator, every request attributed to the rule that sent it, and to the case of the rule it
was sent for (\`specs/requirements/reach.json\`, written by \`npm run docs\`). A place counts as reached by a statement only
when each case of the statement reaches it: a case is a kind of credential or handle its rules name (the same name in two
rules is one case, reached by either), or a rule that names none, as a whole; a case that reaches no place of the kind
speaks of another place and is not asked to.
${pairs.length} (statement, place) pairs: ${reached} reached by every case of the statement, ${excused} not reached with the
reason given, ${pairs.length - reached - excused} not reached. Counted as before issue 39 (a place reached when any one
rule of the statement reaches it), ${anyOne} would count as reached.`,
    '',
    '| kind of place | places | statements |',
    '|---|---|---|',
    ...(Object.keys(PLACE_KINDS) as (keyof typeof PLACE_KINDS)[]).map((kind) =>
      `| ${kind}: ${PLACE_KINDS[kind].what} | ${PLACE_KINDS[kind].places.length} | ${GOVERNS.filter((g) => g.kind === kind).flatMap((g) => g.statements).map(code).join(', ')} |`),
    '',
    '| statement | place | reached by |',
    '|---|---|---|',
    ...pairs.map(row),
  ];
}

export function requirementsMarkdown(): string {
  const titles = specSectionTitles();
  const sections = bySection(REQUIREMENTS);
  const cited = new Set(REQUIREMENTS.flatMap((r) => r.rules ?? []));
  const uncited = allRules().map((r) => r.id).filter((id) => !cited.has(id)).sort();
  return [
    '# Requirements',
    '',
    'Generated by `npm run docs` from `specs/requirements/`; do not edit by hand.',
    '',
    `Every normative or testable statement of \`specs/service.md\` (every table row and prose rule), and the RFC 6749, RFC 6750,
RFC 7519 and HTTP statements the service relies on: ${REQUIREMENTS.length} statements, each with a stable id, the level it
deserves, what a test observes, what the target must offer for that test, and the rules that check it, or why none can
(*untestable*), or what a rule would need to send and observe (**gap**). A **partial** coverage names what its rules leave
unchecked.`,
    '',
    'Levels: `must` (the spec or the RFC states it), `should` (robustness), `info` (the spec leaves it open). Sources: `table`,',
    '`prose`, `rfc6749 §x`, `rfc6750 §x`, `rfc7519 §x`, `http`. Needs: `nothing` (the public endpoints), `person` (someone acts:',
    'Allow, deactivate, regenerate; a control API can stand in), `clock` (time passes on the target; the control clock can stand',
    'in), `control` (only a control API gives it: ground truth, counters), `browser`, `hook` (the kit receives a hook),',
    '`concurrency` (requests in parallel).',
    '',
    `Each statement also carries its **reading**: how its wording becomes a verdict (\`docs/verdicts.md\`, "How a statement's
wording becomes a verdict"). The column names the reading (and the further readings its outcomes rely on, after \`+\`),
the rows of the independent review of 2026-11-26 it answers, and what is \`passed\`, \`non_strict\`, \`failed\` or only
\`informational\` for that statement: **in bold** where the statement's own words decide it, plain where the reading's
default applies. Whatever the reading, a 5xx, a connection reset or a hang is \`failed\`. An untestable statement's reading
says what a verdict would be.`,
    '',
    `The last column lists the wrong answers proven caught for each statement: the emulator's faults (\`docs/faults.md\`)
that make a rule checking it fail. ${faultCoverage()}`,
    '',
    '## Coverage by section',
    '',
    ...coverageTable(sections, titles),
    '',
    '## Readings',
    '',
    ...readingCounts(),
    '',
    '## Places: every statement at every place it governs',
    '',
    ...placesTable(),
    '',
    '## Work list: gaps and partial coverage by theme',
    '',
    ...workList(),
    '## Statements',
    '',
    ...[...sections].flatMap(([s, list]) => [
      `### §${s} ${titles.get(s) ?? ''}`.trimEnd(),
      '',
      '| id | level | source | statement | a test observes | needs | checked by | reading | wrong answers proven caught (faults) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...list.map((r) => `| ${code(r.id)} | ${r.level} | ${r.source} | ${cell(r.statement)} | ${cell(r.observes)} | ${r.needs.join(', ')} | ${cell(trace(r))} | ${cell(reading(r))} | ${faultsOf(r).map(code).join(', ') || (r.level === 'info' ? '—' : '**none**')} |`),
      '',
    ]),
    '## Rules no statement cites',
    '',
    uncited.length === 0 ? 'None: every rule checks at least one statement.' : uncited.map((id) => `- ${code(id)}`).join('\n'),
    '',
  ].join('\n');
}
