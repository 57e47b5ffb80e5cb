/**
 * `conformance faults`: the emulator's fault switches and the rules that catch each.
 */
import { faultsMarkdown } from '../../docs/faults.js';
import { defineCommand } from '../command.js';

export const faultsCommand = defineCommand<Record<string, never>>({
  name: 'faults',
  summary: 'every emulator fault and its rules',
  description: 'Prints, as a Markdown table, every fault switch of the emulator (`conformance emulator --fault <name>`) '
    + 'and the rules that catch it.',
  examples: [['conformance faults', 'the table of docs/faults.md']],
  action: async () => {
    process.stdout.write(faultsMarkdown());
    return 0;
  },
});
