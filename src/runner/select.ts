/**
 * `--only`: comma-separated id globs (`oauth.token.*`) or section prefixes (`4.1`, `4`).
 */
import picomatch from 'picomatch';
import type { Rule } from '../model/rule.js';

export type Selector = (rule: Rule) => boolean;

export function selector(only: string | undefined): Selector {
  if (!only) return () => true;
  const tests = only.split(',').map((p) => p.trim()).filter(Boolean).map((pattern): Selector => {
    if (/^\d+(\.\d+)*$/.test(pattern)) return (r) => r.section === pattern || r.section.startsWith(`${pattern}.`);
    const isMatch = picomatch(pattern, { dot: true });
    return (r) => isMatch(r.id) || r.id === pattern;
  });
  return (rule) => tests.some((t) => t(rule));
}
