/**
 * `conformance variations`: the emulator's allowed-variation switches and the basis of each.
 */
import { variationsMarkdown } from '../../docs/variations.js';
import { defineCommand } from '../command.js';

export const variationsCommand = defineCommand<Record<string, never>>({
  name: 'variations',
  summary: 'every allowed variation of the emulator',
  description: 'Prints, as a Markdown table, every allowed-variation switch of the emulator '
    + '(`conformance emulator --variation <name>`) and the reading of the spec that allows it.',
  examples: [['conformance variations', 'the table of docs/variations.md']],
  action: async () => {
    process.stdout.write(variationsMarkdown());
    return 0;
  },
});
