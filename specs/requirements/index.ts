/**
 * The requirement inventory: every statement of specs/service.md (and the RFC and HTTP ones it relies on), in spec
 * order within each file. A new statement is added to its file; ids are never renumbered or reused.
 */
import { ACCESS } from './access.js';
import { CHAT } from './chat.js';
import { HTTP } from './http.js';
import { LISTS } from './lists.js';
import type { Requirement } from './model.js';

export * from './model.js';
export * from './places.js';

export const REQUIREMENTS: readonly Requirement[] = [...ACCESS, ...LISTS, ...CHAT, ...HTTP];
