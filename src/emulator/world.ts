/**
 * The seeded world: what exists before any request (the developer integration, the customer account, its
 * administrator and the chat channel). Long-lived by design: a control reset clears issued credentials, not these.
 */
import { alphanumericSecret, randomIds, seededIds, type IdSource } from './random.js';

export const REDIRECT_URI = 'https://integration.example/oauth/callback';

export interface Integration {
  readonly clientId: string;
  /** Mutable because regenerating the secret key (§2.1) is a later control action. */
  clientSecret: string;
  readonly redirectUri: string;
  readonly name: string;
  readonly scopes: readonly string[];
}

export interface Account {
  readonly id: number;
  readonly name: string;
  readonly subdomain: string;
  /** The account's id in the chat interface (`CHAT_ACCOUNT_ID`). */
  readonly amojoId: string;
  readonly createdAt: number;
  readonly country: string;
  readonly currency: string;
  readonly customersMode: string;
  readonly isUnsortedOn: boolean;
  readonly isTechnicalAccount: boolean;
  /** The paid filter feature of §4.2; on by default so filtering rules run, switchable later. */
  isApiFilterEnabled: boolean;
}

export interface User {
  readonly id: number;
  readonly name: string;
  readonly isAdmin: boolean;
}

export interface Channel {
  readonly id: string;
  readonly secret: string;
  readonly botId: string;
  readonly name: string;
}

export interface World {
  readonly integration: Integration;
  readonly account: Account;
  readonly admin: User;
  readonly channel: Channel;
}

export function seedWorld(seed?: number): World {
  const ids: IdSource = seed === undefined ? randomIds() : seededIds(seed);
  const subdomain = `emu${ids.word(8)}`;
  return {
    integration: {
      clientId: ids.uuid(),
      clientSecret: alphanumericSecret(64),
      redirectUri: REDIRECT_URI,
      name: 'Conformance Emulator Integration',
      scopes: ['crm', 'notifications'],
    },
    account: {
      id: ids.int(10_000_000, 99_999_999),
      name: 'Emulated Account',
      subdomain,
      amojoId: ids.uuid(),
      // A fixed creation date in the past, not tied to the clock: the account existed before the run.
      createdAt: 1_600_000_000 + ids.int(0, 50_000_000),
      country: 'US',
      currency: 'USD',
      customersMode: 'disabled',
      isUnsortedOn: true,
      isTechnicalAccount: true,
      isApiFilterEnabled: true,
    },
    admin: { id: ids.int(1_000_000, 9_999_999), name: 'Emulated Administrator', isAdmin: true },
    channel: { id: ids.uuid(), secret: alphanumericSecret(40), botId: ids.uuid(), name: 'Emulated Channel' },
  };
}
