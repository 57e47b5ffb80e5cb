/**
 * What the rules of §8 share: fixtures, case tables and the makers of rule families.
 */



