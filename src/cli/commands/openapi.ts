/**
 * `conformance openapi`: the OpenAPI 3.1 description of the service (src/openapi/build.ts), on stdout or into a file.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openApiJson } from '../../openapi/build.js';
import { defineCommand } from '../command.js';

interface OpenApiFlags {
  readonly out?: string;
}

export const openApiCommand = defineCommand<OpenApiFlags>({
  name: 'openapi',
  summary: 'the OpenAPI 3.1 description of the service',
  description: 'Prints the OpenAPI 3.1 description of the service as specs/service.md states it (paths, filter parameters, bodies, '
    + 'status codes, security schemes, the chat signature headers, the disconnect hook), generated from the kit\'s protocol '
    + 'declarations; the same document as docs/openapi.json and the emulator\'s GET /openapi.json.',
  examples: [
    ['conformance openapi', 'the document on stdout'],
    ['conformance openapi --out openapi.json', 'into a file, for Schemathesis, Prism, Dredd or a client generator'],
  ],
  flags: (command) => command.option('--out <file>', 'write it to this file instead of stdout'),
  action: async (flags) => {
    const text = openApiJson();
    if (flags.out === undefined) {
      process.stdout.write(text);
      return 0;
    }
    const path = resolve(flags.out);
    await writeFile(path, text);
    process.stderr.write(`wrote ${path}\n`);
    return 0;
  },
});
