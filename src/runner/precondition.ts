/** Precondition lives with the kit's other errors (src/errors.ts); this path stays for code that names it here. */
export { Precondition } from '../errors.js';
