/**
 * Generated documentation: every file under docs/ that is derived from code, by name.
 * `conformance docs` writes them; a test fails when a committed one is out of date.
 */
import { faultsMarkdown } from './faults.js';
import { requirementsMarkdown } from './requirements.js';
import { rulesMarkdown } from './rules.js';
import { chatTraceabilityMarkdown } from './traceability-chat.js';
import { filterTraceabilityMarkdown } from './traceability-filters.js';

export const GENERATED_DOCS: Record<string, () => string> = {
  'faults.md': faultsMarkdown,
  'requirements.md': requirementsMarkdown,
  'rules.md': rulesMarkdown,
  'traceability-chat.md': chatTraceabilityMarkdown,
  'traceability-filters.md': filterTraceabilityMarkdown,
};
