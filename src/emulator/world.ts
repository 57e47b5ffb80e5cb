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
  /** Disconnect hook URL (§2.1): optional, receives the GET disconnect hook (§4.1, §5.3); set through the control API. */
  hookUrl?: string;
  /** A private integration (§2.1): the account choice of the access-granting page holds exactly its own account. */
  readonly isPrivate?: boolean;
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
  /** §4.1 `platform`: 1 for an account on the regional domain, 2 (also when absent) for the global domain. */
  readonly platform?: 1 | 2;
}

/** An account beyond `World.account`, and whether the administrator is an administrator there (§4.1 behaviour 2). */
export interface OtherAccount extends Account {
  readonly adminRole: 'administrator' | 'member';
}

export interface User {
  readonly id: number;
  readonly name: string;
  readonly isAdmin: boolean;
  /** Login on the access-granting page (§4.1 behaviour 2); the password is a secret, random per instance. */
  readonly login?: string;
  readonly password?: string;
  /**
   * Which deals the user may see (§1 item 3, §4.2 "Access follows the user's rights", §5.1 item 2): every deal of the
   * account, or only those he is responsible for. Absent: every deal (the administrator).
   */
  readonly deals?: 'all' | 'own';
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
  /** More accounts of `admin`: one on the regional domain where he is an administrator, one where he is only a member. */
  readonly otherAccounts: readonly OtherAccount[];
  /** A private integration of `account` (§2.1, §4.1 behaviour 2). */
  readonly privateIntegration: Integration;
  /** A user of `account` who may see only the deals he is responsible for; his tokens carry those rights. */
  readonly restrictedUser: User;
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
      customersMode: 'periodicity',
      isUnsortedOn: true,
      isTechnicalAccount: true,
      isApiFilterEnabled: true,
    },
    admin: { id: ids.int(1_000_000, 9_999_999), name: 'Emulated Administrator', isAdmin: true, login: 'admin@emulator.example', password: alphanumericSecret(24) },
    channel: { id: ids.uuid(), secret: alphanumericSecret(40), botId: ids.uuid(), name: 'Emulated Channel' },
    // Access lifecycle (§4.1 account choice, private integrations); seeded after the rest so earlier ids stay put.
    ...lifecycleWorld(ids),
    // Seeded last, so every id drawn before it stays what the seed made.
    restrictedUser: { id: ids.int(1_000_000, 9_999_999), name: 'Emulated Restricted User', isAdmin: false, deals: 'own' },
  };
}

/** The users of the developer account: the administrator, then the user with restricted rights. */
export function accountUsers(world: World): readonly User[] {
  return [world.admin, world.restrictedUser];
}

/** The user of the developer account with this id. */
export function userById(world: World, id: number): User | undefined {
  return accountUsers(world).find((u) => u.id === id);
}

/** The accounts and integration the access-granting page needs beyond the core world. */
function lifecycleWorld(ids: IdSource): Pick<World, 'otherAccounts' | 'privateIntegration'> {
  const other = (name: string, platform: 1 | 2, adminRole: OtherAccount['adminRole']): OtherAccount => ({
    id: ids.int(10_000_000, 99_999_999),
    name,
    subdomain: `emu${ids.word(8)}`,
    amojoId: ids.uuid(),
    createdAt: 1_600_000_000 + ids.int(0, 50_000_000),
    country: platform === 1 ? 'RU' : 'US',
    currency: platform === 1 ? 'RUB' : 'USD',
    customersMode: 'periodicity',
    isUnsortedOn: true,
    isTechnicalAccount: true,
    isApiFilterEnabled: true,
    platform,
    adminRole,
  });
  return {
    otherAccounts: [other('Emulated Regional Account', 1, 'administrator'), other('Emulated Member Account', 2, 'member')],
    privateIntegration: {
      clientId: ids.uuid(),
      clientSecret: alphanumericSecret(64),
      redirectUri: REDIRECT_URI,
      name: 'Conformance Emulator Private Integration',
      scopes: ['crm'],
      isPrivate: true,
    },
  };
}
