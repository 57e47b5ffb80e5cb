/**
 * What the rules of §2.2 share: fixtures, case tables and the makers of rule families.
 */


/** Codes and refresh tokens sampled by the entropy rule. */
export const CODE_SAMPLES = 16;

export const REFRESH_SAMPLES = 4;
