/**
 * The catalogue of needs is the declaration and the providers register against it: every source a row names has the
 * need registered, and no provider registers a need its source is not named for. The settings are listed once, and
 * what is derived from them (the keys the kit reads, the secret keys, the keys `conformance emulator` prints) agrees
 * with the code that reads or prints them.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { CATALOGUE } from '../../src/needs/catalogue.js';
import { PROVIDERS } from '../../src/needs/dispatch.js';
import { NEED_KINDS, supplyOf } from '../../src/needs/plan.js';
import { EMULATOR_KEYS, ENV_KEYS, SECRET_KEYS, SETTING_GROUPS, envExampleText } from '../../src/needs/settings.js';
import type { Need, NeedSource } from '../../src/model/needs.js';
import { targetFromEnv } from '../../src/targets/from-env.js';

const BASE = { BASE_URL: 'https://acme.example', CLIENT_ID: 'cid', CLIENT_SECRET: 'secret-secret', REDIRECT_URI: 'https://i.example/cb', TOKEN_STORE: '/nonexistent/tokens.json' };

describe('the catalogue and its providers', () => {
  it('registers every need with every source its row names', () => {
    const missing = NEED_KINDS.flatMap((need) => CATALOGUE[need].sources.filter((s: NeedSource) => PROVIDERS[s].offers[need] === undefined).map((s) => `${need} from ${s}`));
    expect(missing).toEqual([]);
  });

  it('registers no need with a source its row does not name', () => {
    const stray = Object.values(PROVIDERS).flatMap((p) => (Object.keys(p.offers) as Need[]).filter((need) => !(CATALOGUE[need].sources as readonly NeedSource[]).includes(p.source)).map((need) => `${need} from ${p.source}`));
    expect(stray).toEqual([]);
  });

  it('gives each provider the source it is filed under', () => {
    for (const [source, provider] of Object.entries(PROVIDERS)) expect(provider.source).toBe(source);
  });

  it('supplies a need from the settings only when its row has settings to read, and names them when they are missing', () => {
    for (const need of NEED_KINDS) {
      const row = CATALOGUE[need];
      if (!(row.sources as readonly NeedSource[]).includes('settings')) continue;
      expect('settings' in row || 'fromSettings' in row, need).toBe(true);
      if (!('settings' in row) || 'gap' in row) continue;
      const supply = supplyOf(need, { id: 'r' }, targetFromEnv(BASE, 'remote'));
      for (const { key } of row.settings.keys) expect('gap' in supply && supply.gap, need).toContain(key);
    }
  });
});

describe('the settings table', () => {
  it('lists each key once, and its secret keys among them', () => {
    expect(new Set(ENV_KEYS).size).toBe(ENV_KEYS.length);
    expect(SECRET_KEYS.filter((k) => !ENV_KEYS.includes(k))).toEqual([]);
    expect(SECRET_KEYS).toEqual(expect.arrayContaining(['CLIENT_SECRET', 'ADMIN_PASSWORD', 'CHANNEL_SECRET_2', 'CLIENT_SECRET_2', 'V1_CHANNEL_SECRET']));
  });

  it('holds every key the configuration code reads', () => {
    const source = readFileSync(new URL('../../src/targets/from-env.ts', import.meta.url), 'utf8');
    const read = new Set([...source.matchAll(/\b(?:env(?:\.|\[')|(?:optional|required|httpUrl|positiveNumber|hostPort|displayName|ConfigError)\(\s*(?:env,\s*)?')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    expect(read.size).toBeGreaterThan(20);
    expect([...read].filter((k) => !ENV_KEYS.includes(k))).toEqual([]);
  });

  it('writes env.example with a commented `KEY=` line for every key', () => {
    const text = envExampleText();
    for (const key of ENV_KEYS) expect(text).toMatch(new RegExp(`^${key}=`, 'm'));
    expect(text.split('\n').filter((l) => l.length > 120)).toEqual([]);
  });

  it('documents every key in docs/design.md §4', () => {
    const design = readFileSync(new URL('../../docs/design.md', import.meta.url), 'utf8');
    const section = design.slice(design.indexOf('## 4. Environment'), design.indexOf('## 5.'));
    for (const key of ENV_KEYS) expect(section).toContain(`\`${key}\``);
    expect(SETTING_GROUPS.every((g) => g.doc.length > 0 && g.comment.length > 0)).toBe(true);
  });
});

describe('`conformance emulator`', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    // `conformance emulator --tls --account-domain sandbox.localhost`: the default shape by name, over https (which
    // adds CA_FILE and HOST_RESOLVE).
    emulator = await startEmulator({ shape: 'deployed', https: true, accountDomain: 'sandbox.localhost' });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('prints exactly the keys the settings table says it makes or describes', async () => {
    const printed = Object.keys(await emulatorSettings(emulator));
    expect([...printed].sort()).toEqual([...EMULATOR_KEYS].sort());
  });

  it('prints the same keys on the default shape by port, less HOST_RESOLVE (its addresses resolve as they are)', async () => {
    const byPort = await startEmulator({ shape: 'deployed', https: true });
    try {
      const printed = Object.keys(await emulatorSettings(byPort));
      expect([...printed].sort()).toEqual(EMULATOR_KEYS.filter((k) => k !== 'HOST_RESOLVE').sort());
    } finally {
      await byPort.close();
    }
  });

  it('prints the same keys on the one-origin shape over http, less HOST_RESOLVE (its addresses resolve as they are) and CA_FILE', async () => {
    const oneOrigin = await startEmulator({ shape: 'one-origin' });
    try {
      const printed = Object.keys(await emulatorSettings(oneOrigin));
      expect([...printed].sort()).toEqual(EMULATOR_KEYS.filter((k) => k !== 'HOST_RESOLVE' && k !== 'CA_FILE').sort());
    } finally {
      await oneOrigin.close();
    }
  });
});
