/**
 * Checks of the redirect to the Redirect URI (§4.1 behaviour 3 and 4, §6), each judging one parameter of the
 * redirect's query so a report names exactly what is off.
 */
import type { Finding } from '../model/outcome.js';
import { fail, nonStrict, pass } from '../model/outcome.js';

export type RedirectCheck = (params: URLSearchParams) => Finding;

const shown = (v: string) => JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);

export function stateReturned(sent: string): RedirectCheck {
  return (params) => {
    const all = params.getAll('state');
    if (all.length === 0) return fail('state returned', `expected state ${shown(sent)} back unchanged, observed no state parameter`);
    if (all.length > 1) return fail('state returned', `expected one state parameter, observed ${all.length}: ${all.map(shown).join(', ')}`);
    return all[0] === sent ? pass('state returned', 'state came back unchanged') : fail('state returned', `expected state ${shown(sent)}, observed ${shown(all[0]!)}`);
  };
}

/**
 * No `name` parameter. `lenient` says which present values are a lesser departure (non_strict): `empty` an empty value
 * (`state=`, K5: returned, but carrying nothing), `falsy` also 0 and false (`from_widget=0`, K6: present, saying no).
 */
export function parameterAbsent(name: string, why: string, lenient?: 'empty' | 'falsy'): RedirectCheck {
  const lesser = (v: string) => (lenient === 'empty' || lenient === 'falsy') && v === '' || (lenient === 'falsy' && ['0', 'false'].includes(v.toLowerCase()));
  return (params) => {
    if (!params.has(name)) return pass(`no ${name}`);
    const values = params.getAll(name);
    return values.every(lesser)
      ? nonStrict(`no ${name}`, `expected no ${name} parameter (${why}), observed ${values.map((v) => `${name}=${shown(v)}`).join(', ')}: present, but saying nothing`)
      : fail(`no ${name}`, `expected no ${name} parameter (${why}), observed ${name}=${shown(params.get(name)!)}`);
  };
}

export function parameterPresent(name: string): RedirectCheck {
  return (params) => params.get(name) ? pass(name, `${name} present`) : fail(name, `expected a non-empty ${name} parameter, observed ${params.has(name) ? 'an empty one' : 'none'}`);
}

export function parameterEquals(name: string, expected: string): RedirectCheck {
  return (params) => params.get(name) === expected
    ? pass(name, `${name}=${expected}`)
    : fail(name, `expected ${name}=${expected}, observed ${params.has(name) ? `${name}=${shown(params.get(name)!)}` : `no ${name}`}`);
}

/** host[:port] and path of an address, the host lower-cased and the path without a trailing slash; undefined when it is no URL. */
function addressKey(address: string, scheme: string): string | undefined {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `${scheme}//${address}`);
    return `${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/**
 * `referer` names the chosen account's address (§4.1: "address of the user's account"), `address` being that account's
 * own {base_url}. Compared as host and path: the referer may come with or without a scheme (clients prefix https://).
 */
export function refererNames(address: string, what: string): RedirectCheck {
  return (params) => {
    const referer = params.get('referer');
    if (!referer) return fail('referer', `expected referer to name ${what} (${address}), observed ${params.has('referer') ? 'an empty one' : 'none'}`);
    const expected = addressKey(address, 'https:');
    return expected !== undefined && addressKey(referer, 'https:') === expected
      ? pass('referer', `referer names ${what}`)
      : fail('referer', `expected referer to name ${what} (${address}), observed referer=${shown(referer)}`);
  };
}

/** `platform` is 1 (regional domain) or 2 (global domain). */
export const platformOneOrTwo: RedirectCheck = (params) => {
  const v = params.get('platform');
  return v === '1' || v === '2' ? pass('platform', `platform=${v}`) : fail('platform', `expected platform 1 or 2, observed ${v === null ? 'no platform' : `platform=${shown(v)}`}`);
};

export function checkRedirect(params: URLSearchParams, checks: readonly RedirectCheck[]): Finding[] {
  return checks.map((c) => c(params));
}
