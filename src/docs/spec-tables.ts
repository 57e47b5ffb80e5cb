/**
 * Reads the tables of the spec (specs/service.md, a copy of ../shared/spec/service.md kept equal by a test), so
 * traceability tables are generated from the spec's own rows and the rules' `covers` keys, never typed by hand.
 */
import { readFileSync } from 'node:fs';
import { SPEC_PATH } from '../paths.js';

export interface SpecRow {
  /**
   * `<section>/<first cell without backticks>`, e.g. `4.2/filter[id]` or `2.5/ref_id`; §4.2's per-list table gives
   * `4.2/api/v4/leads filter[price]`; under an endpoint heading of §4.3 it is `4.3/Connect channel/account_id`.
   */
  readonly key: string;
  readonly section: string;
  /** The heading the table sits under, e.g. `2.5 Participant object (...)` or `Connect channel`. */
  readonly heading: string;
  readonly cells: readonly string[];
}

export interface SpecTable {
  readonly section: string;
  readonly heading: string;
  readonly header: readonly string[];
  readonly rows: readonly SpecRow[];
}

const clean = (cell: string) => cell.trim().replace(/`/g, '');

export function specTables(text = readFileSync(SPEC_PATH, 'utf8')): SpecTable[] {
  const tables: SpecTable[] = [];
  let section = '';
  let heading = '';
  let current: { header: string[]; rows: SpecRow[] } | undefined;
  for (const line of text.split('\n')) {
    const h = /^(#{2,4}) (.*)$/.exec(line);
    if (h) {
      heading = h[2]!.trim();
      const num = /^(\d+(?:\.\d+)*)\.? /.exec(heading);
      if (num) section = num[1]!;
      current = undefined;
      continue;
    }
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map(clean);
    if (cells.every((c) => /^-+$/.test(c))) continue;
    if (!current) {
      current = { header: cells, rows: [] };
      tables.push({ section, heading, header: current.header, rows: current.rows });
      continue;
    }
    // §4.2's per-list table names the path in its first column and the parameter in the second.
    const first = current.header[0] === 'Path' ? `${cells[0]!.replace(/^\//, '')} ${cells[1]}` : cells[0]!;
    // Under an unnumbered heading (an endpoint of §4.3) the heading is part of the key: fields repeat across endpoints.
    const scope = /^\d/.test(heading) ? '' : `${heading}/`;
    current.rows.push({ key: `${section}/${scope}${first}`, section, heading, cells });
  }
  return tables;
}

/** Every row of the tables under the given sections (exact section or its subsections). */
export function specRows(sections: readonly string[]): SpecRow[] {
  return specTables()
    .filter((t) => sections.some((s) => t.section === s || t.section.startsWith(`${s}.`)))
    .flatMap((t) => t.rows);
}
