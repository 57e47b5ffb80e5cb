/**
 * What the rules of §2.8 share: fixtures, case tables and the makers of rule families.
 */
import { type PreviewSent } from '../kit.js';

export interface Broken { readonly what: string; readonly url: unknown }

export interface PreviewCase extends PreviewSent { readonly what: string }

export const LINK = 'https://cdn.social.example/tmp/preview.jpg?expires=3600';

export const PERMALINK = 'https://social.example/previews/post.jpg';

export const CASES: PreviewCase[] = [
  { what: 'preview_link only', preview_link: LINK },
  { what: 'preview_permalink only', preview_permalink: PERMALINK },
  { what: 'both', preview_link: LINK, preview_permalink: PERMALINK },
];
