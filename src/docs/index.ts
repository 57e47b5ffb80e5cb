/**
 * Generated documentation: every file under docs/ that is derived from code, by name.
 * `conformance docs` writes them; a test fails when a committed one is out of date.
 */
import { envExampleText, settingsMarkdown } from '../needs/settings.js';
import { openApiJson } from '../openapi/build.js';
import { faultsMarkdown } from './faults.js';
import { readingsMarkdown } from './readings.js';
import { readmeCountsMarkdown } from './readme-counts.js';
import { requirementsCoverageMarkdown, requirementsMarkdown } from './requirements.js';
import { rulesMarkdown } from './rules.js';
import { chatTraceabilityMarkdown } from './traceability-chat.js';
import { filterTraceabilityMarkdown } from './traceability-filters.js';
import { variationsMarkdown } from './variations.js';

export const GENERATED_DOCS: Record<string, () => string> = {
  'faults.md': faultsMarkdown,
  'openapi.json': openApiJson,
  'requirements.md': requirementsMarkdown,
  'rules.md': rulesMarkdown,
  'traceability-chat.md': chatTraceabilityMarkdown,
  'traceability-filters.md': filterTraceabilityMarkdown,
  'variations.md': variationsMarkdown,
};

/** Generated files outside docs/, by their path from the repository root. */
export const GENERATED_ROOT_FILES: Record<string, () => string> = {
  'env.example': envExampleText,
};

/** Generated blocks inside hand-written files: the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export interface GeneratedBlock {
  /** Path from the repository root. */
  readonly file: string;
  readonly name: string;
  readonly render: () => string;
}

export const GENERATED_BLOCKS: readonly GeneratedBlock[] = [
  { file: 'README.md', name: 'counts', render: readmeCountsMarkdown },
  { file: 'README.md', name: 'coverage', render: requirementsCoverageMarkdown },
  { file: 'docs/verdicts.md', name: 'readings', render: readingsMarkdown },
  { file: 'docs/design.md', name: 'settings', render: settingsMarkdown },
];

/** `current` with the block replaced by a fresh rendering; throws when the markers are missing. */
export function withBlock(current: string, block: GeneratedBlock): string {
  const open = `<!-- generated:${block.name} -->`;
  const close = `<!-- /generated:${block.name} -->`;
  const start = current.indexOf(open);
  const end = current.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${block.file} has no ${open} … ${close} markers`);
  return `${current.slice(0, start + open.length)}\n${block.render()}\n${current.slice(end)}`;
}
