/**
 * The valid input space of the chat routes (§2.5–§2.11, §4.3), walked from a route's richest valid request: every
 * optional member left out in turn, every array emptied, every object whose members are all optional emptied, every
 * reference (a conversation, a message, a chat) replaced by one that names nothing. A request is addressed as one
 * JSON document, `{ params, query, body }`, so that a path segment (`params.msgid`) or a query value is walked like a
 * body member. Each case says how the spec judges it: `accepted` (an optional member may be omitted), `not-found`
 * (§7 states 404 for it), or `either` (the spec is silent: any 2xx or 4xx, never a 5xx).
 */
import fc from 'fast-check';

export type MemberPath = readonly (string | number)[];

/** How the spec judges a case's answer: stated success, stated 404, or only "no 5xx". */
export type SpaceExpectation = 'accepted' | 'not-found' | 'either';

export interface OptionalMember {
  readonly path: MemberPath;
  /** `either` for an unmarked member whose siblings are marked optional (docs/verdicts.md `unmarked-member`). */
  readonly expect?: 'accepted' | 'either';
  /** The reading calls a refusal of this member's absence a lesser departure (non_strict), e.g. a react without emoji (C59). */
  readonly refusal?: 'non_strict';
  /** Members of one group name the same thing two ways ("optional if … is given"): at most one is left out at once. */
  readonly group?: string;
}

export interface Reference {
  readonly path: MemberPath;
  /** Sibling members that name the same thing (an id beside a msgid), left out so that only the unknown one names it. */
  readonly alsoDrop?: readonly MemberPath[];
  readonly expect: SpaceExpectation;
}

/** A route's valid space, described against its richest valid request. */
export interface ValidSpace {
  readonly optional: readonly OptionalMember[];
  readonly arrays: readonly MemberPath[];
  /** Objects every member of which is optional (a profile): sent as `{}`. */
  readonly emptied: readonly MemberPath[];
  readonly references: readonly Reference[];
}

export type SpaceCase =
  | { readonly kind: 'absent'; readonly paths: readonly MemberPath[]; readonly expect: 'accepted' | 'either'; readonly refusal?: 'non_strict' }
  | { readonly kind: 'empty-array'; readonly path: MemberPath; readonly absent: readonly MemberPath[] }
  | { readonly kind: 'empty-object'; readonly path: MemberPath }
  | { readonly kind: 'unknown'; readonly path: MemberPath; readonly alsoDrop: readonly MemberPath[]; readonly token: string; readonly expect: SpaceExpectation };

const P = (...path: (string | number)[]): MemberPath => path;

const participantOptional = (at: MemberPath): OptionalMember[] => [
  { path: [...at, 'avatar'] }, { path: [...at, 'profile'] }, { path: [...at, 'profile', 'phone'] }, { path: [...at, 'profile', 'email'] }, { path: [...at, 'profile_link'] },
];

/**
 * The spaces of the routes a chat integration calls with data (connect and disconnect have a member or two, walked by
 * `chat.connect.optional-omitted` and the repeated-call rules). Each is described against the request the step
 * `spaceRequest` builds (src/steps/chat-valid-space.ts).
 */
export const VALID_SPACES = {
  // §2.5 participant, §2.6 source, §2.11 embedded messages by id or msgid, §4.3 reply_to and forwards
  message: {
    optional: [
      { path: P('body', 'payload', 'source') },
      { path: P('body', 'payload', 'source', 'external_id'), expect: 'either' },
      ...participantOptional(P('body', 'payload', 'sender')),
      // silent, unmarked, is a flag whose absence reads as false; a refusal of a message without it is a lesser departure (R2-C19).
      { path: P('body', 'payload', 'silent'), refusal: 'non_strict' },
      { path: P('body', 'payload', 'reply_to') },
      { path: P('body', 'payload', 'reply_to', 'message', 'id'), group: 'quote' },
      { path: P('body', 'payload', 'reply_to', 'message', 'msgid'), group: 'quote' },
      { path: P('body', 'payload', 'forwards') },
      { path: P('body', 'payload', 'forwards', 'messages', 0, 'id'), group: 'forward' },
      { path: P('body', 'payload', 'forwards', 'messages', 0, 'msgid'), group: 'forward' },
      { path: P('body', 'payload', 'forwards', 'conversation_id') },
      { path: P('body', 'payload', 'forwards', 'conversation_ref_id') },
    ],
    arrays: [P('body', 'payload', 'forwards', 'messages')],
    emptied: [P('body', 'payload', 'sender', 'profile')],
    references: [
      // A conversation the integration never used is a new chat (§4.3 rule 1); its reply_to would quote another chat.
      { path: P('body', 'payload', 'conversation_id'), alsoDrop: [P('body', 'payload', 'reply_to')], expect: 'accepted' },
      { path: P('body', 'payload', 'reply_to', 'message', 'msgid'), alsoDrop: [P('body', 'payload', 'reply_to', 'message', 'id')], expect: 'either' },
      { path: P('body', 'payload', 'reply_to', 'message', 'id'), alsoDrop: [P('body', 'payload', 'reply_to', 'message', 'msgid')], expect: 'either' },
      { path: P('body', 'payload', 'forwards', 'messages', 0, 'msgid'), alsoDrop: [P('body', 'payload', 'forwards', 'messages', 0, 'id')], expect: 'either' },
      { path: P('body', 'payload', 'forwards', 'messages', 0, 'id'), alsoDrop: [P('body', 'payload', 'forwards', 'messages', 0, 'msgid')], expect: 'either' },
      { path: P('body', 'payload', 'forwards', 'conversation_ref_id'), expect: 'either' },
      // "Forwarded messages may come from any external chat of the integration" (§4.3): a conversation_id the chat
      // interface never held names such a chat, so it is accepted, as chat.forwards.foreign-message reads it (one reading).
      { path: P('body', 'payload', 'forwards', 'conversation_id'), expect: 'accepted' },
    ],
  },
  // §4.3 rule 4: an edit carries message and the identifying ids
  edit: {
    optional: [
      { path: P('body', 'payload', 'id'), group: 'message' },
      { path: P('body', 'payload', 'msgid'), group: 'message' },
      // Rule 4 names message and the ids; the payload table leaves the timestamps unmarked, so a refusal is a lesser departure.
      { path: P('body', 'payload', 'timestamp'), refusal: 'non_strict' },
      { path: P('body', 'payload', 'msec_timestamp'), refusal: 'non_strict' },
      // silent, unmarked, is a flag whose absence reads as false; a refusal of a message without it is a lesser departure (R2-C19).
      { path: P('body', 'payload', 'silent'), refusal: 'non_strict' },
    ],
    arrays: [],
    emptied: [],
    references: [
      { path: P('body', 'payload', 'msgid'), alsoDrop: [P('body', 'payload', 'id')], expect: 'either' },
      { path: P('body', 'payload', 'id'), alsoDrop: [P('body', 'payload', 'msgid')], expect: 'either' },
      { path: P('body', 'payload', 'conversation_id'), expect: 'either' },
    ],
  },
  // §4.3 create chat: source and the user's avatar, profile and profile_link optional
  chats: {
    optional: [
      { path: P('body', 'source') },
      { path: P('body', 'source', 'external_id'), expect: 'either' },
      ...participantOptional(P('body', 'user')),
    ],
    arrays: [],
    emptied: [P('body', 'user', 'profile')],
    references: [],
  },
  // §4.3 delivery status: "404: message does not exist"
  status: {
    optional: [],
    arrays: [],
    emptied: [],
    references: [{ path: P('params', 'msgid'), expect: 'not-found' }],
  },
  // §4.3 typing: duration_ms optional (default 5000)
  typing: {
    optional: [{ path: P('body', 'duration_ms') }],
    arrays: [],
    emptied: [],
    references: [
      { path: P('body', 'conversation_id'), expect: 'either' },
      { path: P('body', 'sender', 'id'), expect: 'either' },
    ],
  },
  // §4.3 reaction: each id "optional if the other is given", emoji optional; "404: message does not exist"
  react: {
    optional: [
      { path: P('body', 'conversation_id'), group: 'conversation' },
      { path: P('body', 'conversation_ref_id'), group: 'conversation' },
      { path: P('body', 'id'), group: 'message' },
      { path: P('body', 'msgid'), group: 'message' },
      { path: P('body', 'emoji'), refusal: 'non_strict' },
    ],
    arrays: [],
    emptied: [],
    references: [
      { path: P('body', 'msgid'), alsoDrop: [P('body', 'id')], expect: 'not-found' },
      { path: P('body', 'id'), alsoDrop: [P('body', 'msgid')], expect: 'not-found' },
      { path: P('body', 'conversation_id'), alsoDrop: [P('body', 'conversation_ref_id')], expect: 'either' },
      { path: P('body', 'conversation_ref_id'), alsoDrop: [P('body', 'conversation_id')], expect: 'either' },
      { path: P('body', 'user', 'id'), expect: 'either' },
    ],
  },
  // §4.3 history: offset and limit; "204 when the chat does not exist"
  history: {
    optional: [{ path: P('query', 'offset') }, { path: P('query', 'limit') }, { path: P('query') }],
    arrays: [],
    emptied: [],
    references: [{ path: P('params', 'conversation_id'), expect: 'either' }],
  },
} as const satisfies Record<string, ValidSpace>;

export type SpaceRoute = keyof typeof VALID_SPACES;
export const SPACE_ROUTES = Object.keys(VALID_SPACES) as SpaceRoute[];

const absentCase = (members: readonly OptionalMember[]): SpaceCase => {
  const refusal = members.some((m) => m.refusal === 'non_strict');
  return {
    kind: 'absent', paths: members.map((m) => m.path), expect: members.every((m) => (m.expect ?? 'accepted') === 'accepted') ? 'accepted' : 'either',
    ...(refusal && { refusal: 'non_strict' as const }),
  };
};

/** The deterministic cases of a space: each optional member absent, each array and all-optional object emptied, each reference unknown. */
export function namedSpaceCases(space: ValidSpace): SpaceCase[] {
  return [
    ...space.optional.map((m) => absentCase([m])),
    ...space.arrays.map((path): SpaceCase => ({ kind: 'empty-array', path, absent: [] })),
    ...space.emptied.map((path): SpaceCase => ({ kind: 'empty-object', path })),
    ...space.references.map((r): SpaceCase => ({ kind: 'unknown', path: r.path, alsoDrop: r.alsoDrop ?? [], token: 'named', expect: r.expect })),
  ];
}

/** At most one member of each group, so that what is left still names the thing the group names. */
const onePerGroup = (members: readonly OptionalMember[]): boolean => {
  const groups = members.flatMap((m) => (m.group ? [m.group] : []));
  return new Set(groups).size === groups.length;
};

/**
 * Random cases of a space: several optional members absent at once, an array emptied beside absent members, or a
 * reference replaced by a random unknown one.
 */
export function spaceCaseArb(space: ValidSpace): fc.Arbitrary<SpaceCase> {
  const subsets = space.optional.length > 0 ? fc.subarray([...space.optional], { minLength: 1 }).filter(onePerGroup) : undefined;
  const token = fc.stringMatching(/^[a-z0-9]{1,16}$/);
  const options: fc.Arbitrary<SpaceCase>[] = [];
  if (subsets) options.push(subsets.map(absentCase));
  if (space.arrays.length > 0) {
    const absent = subsets ? fc.option(subsets, { nil: undefined }) : fc.constant(undefined);
    options.push(fc.tuple(fc.constantFrom(...space.arrays), absent).map(([path, members]): SpaceCase => ({
      // Members inside the emptied array are gone with it.
      kind: 'empty-array', path, absent: (members ?? []).map((m) => m.path).filter((p) => !startsWith(p, path)),
    })));
  }
  if (space.references.length > 0) {
    options.push(fc.tuple(fc.constantFrom(...space.references), token).map(([r, t]): SpaceCase => ({ kind: 'unknown', path: r.path, alsoDrop: r.alsoDrop ?? [], token: t, expect: r.expect })));
  }
  return fc.oneof(...options);
}

function startsWith(path: MemberPath, prefix: MemberPath): boolean {
  return prefix.every((k, i) => path[i] === k);
}

/** How the case's answer is judged: an emptied array by `either` (the spec names no lower count), an emptied all-optional object as accepted. */
export function spaceExpectation(c: SpaceCase): SpaceExpectation {
  if (c.kind === 'empty-array') return 'either';
  if (c.kind === 'empty-object') return 'accepted';
  return c.expect;
}

const dotted = (p: MemberPath): string => p.join('.');

export function describeSpaceCase(c: SpaceCase): string {
  switch (c.kind) {
    case 'absent': return `without ${c.paths.map(dotted).join(', ')}`;
    case 'empty-array': return `${dotted(c.path)} = []${c.absent.length > 0 ? `, without ${c.absent.map(dotted).join(', ')}` : ''}`;
    case 'empty-object': return `${dotted(c.path)} = {}`;
    case 'unknown': return `${dotted(c.path)} naming nothing (${c.token})${c.alsoDrop.length > 0 ? `, without ${c.alsoDrop.map(dotted).join(', ')}` : ''}`;
  }
}

/** The request document with the case applied; `unknown(token)` makes the id that names nothing on the target. */
export function applySpaceCase<T>(request: T, c: SpaceCase, unknown: (token: string) => string): T {
  const copy = structuredClone(request) as unknown;
  const drop = (path: MemberPath) => setAt(copy, path, undefined);
  switch (c.kind) {
    case 'absent': [...c.paths].sort((a, b) => b.length - a.length).forEach(drop); break;
    case 'empty-array': [...c.absent].sort((a, b) => b.length - a.length).forEach(drop); setAt(copy, c.path, []); break;
    case 'empty-object': setAt(copy, c.path, {}); break;
    case 'unknown': c.alsoDrop.forEach(drop); setAt(copy, c.path, unknown(c.token)); break;
  }
  return copy as T;
}

/** Sets (or, with undefined, deletes) the member at `path`; a path through a member already gone changes nothing. */
function setAt(doc: unknown, path: MemberPath, value: unknown): void {
  let node = doc as Record<string | number, unknown> | undefined;
  for (const key of path.slice(0, -1)) {
    const next = node?.[key];
    if (next === null || typeof next !== 'object') return;
    node = next as Record<string | number, unknown>;
  }
  if (!node) return;
  const last = path.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
}
