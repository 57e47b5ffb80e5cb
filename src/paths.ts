/**
 * Files of the kit read at run time (package.json, the spec, the Chromium install script), by their path from the
 * kit's root. From the sources the root is this file's parent folder; from the bundle bin/bundle.js builds, where
 * every module shares one file in node_modules/.cache, the bundler defines it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __KIT_ROOT__: string | undefined;

export const KIT_ROOT: string = typeof __KIT_ROOT__ === 'string' ? __KIT_ROOT__ : fileURLToPath(new URL('..', import.meta.url));

export function kitPath(...segments: string[]): string {
  return join(KIT_ROOT, ...segments);
}

/** The spec the suite is built from (a copy of ../shared/spec/service.md kept equal by a test). */
export const SPEC_PATH = kitPath('specs', 'service.md');

/** The kit's own name and version, as package.json has them. */
export const KIT_PACKAGE = JSON.parse(readFileSync(kitPath('package.json'), 'utf8')) as { readonly name: string; readonly version: string };

/** Which places each rule reached in the last traced run (`conformance docs` writes it; docs/requirements.md reads it). */
export const REACH_PATH = kitPath('specs', 'requirements', 'reach.json');
