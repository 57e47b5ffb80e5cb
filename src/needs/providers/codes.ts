/** The authorization code in the Redirect URI an Allow led to, or TargetAnswer (judged by the Allow rule) when there is none. */
import { TargetAnswer } from '../../errors.js';
import { STEP_OWNERS } from '../../steps/owners.js';

export function codeOf(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new TargetAnswer(STEP_OWNERS.allowRedirect, `Allow redirected to something that is not a URL: ${location.slice(0, 80)}`);
  }
  const code = url.searchParams.get('code');
  if (!code) throw new TargetAnswer(STEP_OWNERS.allowRedirect, `Allow on the access-granting page redirected without a code (${url.searchParams.get('error') ?? 'no error either'})`);
  return code;
}
