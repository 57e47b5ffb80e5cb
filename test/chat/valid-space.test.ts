/**
 * The valid space of the chat routes: the cases walked from a route's richest request, how each is applied, and how
 * its answer is judged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySpaceCase, describeSpaceCase, namedSpaceCases, SPACE_ROUTES, spaceCaseArb, VALID_SPACES, type SpaceCase } from '../../generators/chat-valid-space.js';
import { spaceCaseChecks } from '../../src/checks/chat-valid-space.js';
import type { HttpResponse } from '../../src/model/http.js';

const res = (s: number): HttpResponse => ({ status: s, headers: {}, text: '', durationMs: 1 });
const request = {
  params: { msgid: 'm1' },
  body: { payload: { conversation_id: 'c', reply_to: { message: { id: 'i1', msgid: 'm0' } }, forwards: { messages: [{ id: 'i2' }] }, sender: { id: 's', name: 'n', profile: { phone: '1' } } } },
};

describe('the valid space of the chat routes', () => {
  it('names every optional member, array, emptied object and reference of a route once', () => {
    const cases = namedSpaceCases(VALID_SPACES.message);
    const { optional, arrays, emptied, references } = VALID_SPACES.message;
    expect(cases).toHaveLength(optional.length + arrays.length + emptied.length + references.length);
    expect(new Set(cases.map(describeSpaceCase)).size).toBe(cases.length);
  });

  it('leaves a member out, empties an array or an object, and replaces a reference with its siblings dropped', () => {
    const absent: SpaceCase = { kind: 'absent', paths: [['body', 'payload', 'reply_to', 'message', 'id'], ['body', 'payload', 'reply_to']], expect: 'accepted' };
    expect(applySpaceCase(request, absent, () => '').body.payload).not.toHaveProperty('reply_to');
    const emptied = applySpaceCase(request, { kind: 'empty-array', path: ['body', 'payload', 'forwards', 'messages'], absent: [] }, () => '');
    expect(emptied.body.payload.forwards.messages).toEqual([]);
    expect(applySpaceCase(request, { kind: 'empty-object', path: ['body', 'payload', 'sender', 'profile'] }, () => '').body.payload.sender.profile).toEqual({});
    const unknown = applySpaceCase(request, {
      kind: 'unknown', path: ['body', 'payload', 'reply_to', 'message', 'msgid'], alsoDrop: [['body', 'payload', 'reply_to', 'message', 'id']], token: 't', expect: 'either',
    }, (t) => `none-${t}`);
    expect(unknown.body.payload.reply_to.message).toEqual({ msgid: 'none-t' });
    expect(applySpaceCase(request, { kind: 'unknown', path: ['params', 'msgid'], alsoDrop: [], token: 'x', expect: 'not-found' }, () => 'gone').params.msgid).toBe('gone');
    expect(request.body.payload.reply_to.message).toEqual({ id: 'i1', msgid: 'm0' });
  });

  it('never leaves out both ways of naming one thing in a random case', () => {
    for (const route of SPACE_ROUTES) {
      for (const c of fc.sample(spaceCaseArb(VALID_SPACES[route]), { seed: 7, numRuns: 50 })) {
        if (c.kind !== 'absent') continue;
        const dropped = c.paths.map((p) => p.join('.'));
        expect(dropped.includes('body.id') && dropped.includes('body.msgid'), `${route}: ${dropped.join(', ')}`).toBe(false);
        expect(dropped.includes('body.payload.id') && dropped.includes('body.payload.msgid'), `${route}: ${dropped.join(', ')}`).toBe(false);
      }
    }
  });

  it('judges an absent optional member as accepted, a stated 404 as 404, and an unstated reference by no 5xx only', () => {
    const absent: SpaceCase = { kind: 'absent', paths: [['body', 'emoji']], expect: 'accepted' };
    expect(spaceCaseChecks(absent, 200).map((c) => c(res(200)).verdict)).toEqual(['passed']);
    expect(spaceCaseChecks(absent, 200).map((c) => c(res(400)).verdict)).toEqual(['failed']);
    expect(spaceCaseChecks({ ...absent, refusal: 'non_strict' }, 200).map((c) => c(res(400)).verdict)).toEqual(['non_strict']);
    const notFound: SpaceCase = { kind: 'unknown', path: ['params', 'msgid'], alsoDrop: [], token: 't', expect: 'not-found' };
    expect(spaceCaseChecks(notFound, 200).map((c) => c(res(404)).verdict)).toEqual(['passed']);
    expect(spaceCaseChecks(notFound, 200).map((c) => c(res(200)).verdict)).toEqual(['failed']);
    const either: SpaceCase = { ...notFound, expect: 'either' };
    expect(spaceCaseChecks(either, 200).map((c) => [c(res(200)).verdict, c(res(400)).verdict, c(res(500)).verdict])).toEqual([['passed', 'passed', 'failed']]);
    expect(spaceCaseChecks({ kind: 'empty-array', path: ['a'], absent: [] }, 200).map((c) => c(res(400)).verdict)).toEqual(['passed']);
  });
});
