/**
 * Checks of the chat interface where the spec's wording leaves a choice the readings of docs/verdicts.md name:
 * a request member taken leniently (`unmarked-member`, `wrong-type`, §2.8's shared_post.type), and the members of a
 * participant in an answer (`answer-member`: "avatar (empty if not given)", "phone, email (both absent when not
 * given)", a phone in another spelling). Review rows C6–C8, C14, C15, C27, C31 (docs/review-2026-11-26.md).
 */
import type { Check } from '../model/check.js';
import { fail, nonStrict, pass } from '../model/outcome.js';
import { jsonAt, type Path, shown } from './fields.js';

const pathName = (path: Path): string => (typeof path === 'string' ? path : path.join('.'));


/** §2.5 "avatar (empty if not given)": "" passes; left out or null is non_strict; any other value fails. */
export function emptyAvatar(path: Path): Check {
  const name = pathName(path);
  return (res) => {
    const v = jsonAt(res, path);
    if (v === '') return pass(name, 'empty');
    if (v === undefined || v === null) return nonStrict(name, `expected "" (empty if not given), observed ${v === null ? 'null' : 'no avatar member'}`);
    return fail(name, `expected "" (no avatar was given), observed ${shown(v)}`);
  };
}

/**
 * §2.5 avatar given: the answer shows it, the URL sent or a re-hosted copy (answer-member: any non-empty URL passes).
 * Left out, null or "" is non_strict: a listed member missing, or not yet there ("the image is downloaded", which may
 * come after the answer; R2-C5). Another type fails.
 */
export function avatarGiven(path: Path): Check {
  const name = pathName(path);
  return (res) => {
    const v = jsonAt(res, path);
    if (typeof v === 'string' && v !== '') return pass(name, shown(v));
    if (v === undefined || v === null || v === '') return nonStrict(name, `expected the avatar given, observed ${v === undefined ? 'no avatar member' : shown(v)}`);
    return fail(name, `expected the avatar given (the URL sent or a copy), observed ${shown(v)}`);
  };
}

/** §2.5 "phone, email (both absent when not given)": absent passes; null or "" is non_strict; a value fails. */
export function absentWhenNotGiven(...paths: readonly string[]): Check {
  const name = `not given: ${paths.join(', ')}`;
  return (res) => {
    const seen = paths.map((p) => [p, jsonAt(res, p)] as const);
    const valued = seen.filter(([, v]) => v !== undefined && v !== null && v !== '');
    if (valued.length > 0) return fail(name, `expected ${paths.join(', ')} absent (none was given), observed ${valued.map(([p, v]) => `${p} ${shown(v)}`).join('; ')}`);
    const empty = seen.filter(([, v]) => v !== undefined);
    if (empty.length > 0) return nonStrict(name, `expected absent, observed ${empty.map(([p, v]) => `${p} ${shown(v)}`).join('; ')} ("empty" spelt otherwise)`);
    return pass(name, 'absent');
  };
}

/** Whether `v` is the phone `sent` in another spelling: the same digits (C8: "`phone` (string, optional)" states no format). */
const sameNumber = (v: unknown, sent: string): boolean => {
  const digits = (x: string) => x.replace(/\D/g, '');
  return typeof v === 'string' && digits(v) !== '' && digits(v) === digits(sent);
};

/** A phone given in a request, as an answer shows it: the same string passes; the same digits otherwise spelt is non_strict. */
export function phoneShownAs(path: Path, sent: string): Check {
  const name = pathName(path);
  return (res) => {
    const v = jsonAt(res, path);
    if (v === sent) return pass(name, shown(v));
    if (sameNumber(v, sent)) return nonStrict(name, `expected ${shown(sent)}, observed ${shown(v)} (the same number, normalised)`);
    return fail(name, `expected ${shown(sent)}, observed ${shown(v)}`);
  };
}

/** How one member of a participant compares with what was sent, before it is folded into a finding. */
export interface MemberShown {
  readonly verdict: 'passed' | 'non_strict' | 'failed';
  readonly detail: string;
}

/**
 * avatar, phone or email of a participant in a history element, against what was sent (`undefined`: not given), by
 * answer-member and §4.3 history "Empty values may be omitted": not given, omitted (or an avatar "") passes, null or ""
 * is non_strict ("empty" spelt otherwise), a value fails; given, the value passes (an avatar: any non-empty URL, a
 * re-hosted copy), the same phone digits otherwise spelt is non_strict, another value fails. A given phone or email
 * missing (or null) fails: the history table lists them for the participant, and only empty values may be omitted
 * (R2-C16); a given avatar missing is non_strict (its download may come later, R2-C5).
 */
export function historyMemberShown(member: 'avatar' | 'phone' | 'email', v: unknown, sent: string | undefined): MemberShown {
  const seen = `${member} ${v === undefined ? 'omitted' : shown(v)}`;
  if (sent === undefined || sent === '') {
    if (v === undefined || (member === 'avatar' && v === '')) return { verdict: 'passed', detail: seen };
    if (v === null || v === '') return { verdict: 'non_strict', detail: `${seen} where none was given ("empty" spelt otherwise)` };
    return { verdict: 'failed', detail: `${seen} where none was given` };
  }
  if (v === undefined || v === null) {
    return member === 'avatar'
      ? { verdict: 'non_strict', detail: `${seen}, expected ${shown(sent)} (a member listed missing)` }
      : { verdict: 'failed', detail: `${seen}, expected ${shown(sent)}: given, it is not an empty value the history may omit` };
  }
  const same = member === 'avatar' ? typeof v === 'string' && v !== '' : v === sent;
  if (same) return { verdict: 'passed', detail: seen };
  if (member === 'phone' && sameNumber(v, sent)) return { verdict: 'non_strict', detail: `${seen}, expected ${shown(sent)} (the same number, normalised)` };
  return { verdict: 'failed', detail: `${seen}, expected ${member === 'avatar' ? 'the avatar given (the URL sent or a copy)' : shown(sent)}` };
}
