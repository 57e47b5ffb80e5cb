/**
 * A text read back in another Unicode normalisation form is the same text, not literally as sent (K39): non_strict;
 * other characters fail.
 */
import { describe, expect, it } from 'vitest';
import { readBackIs } from '../../src/checks/chat-http.js';
import type { HttpResponse } from '../../src/model/http.js';

const sent: HttpResponse = { status: 200, headers: {}, text: '', durationMs: 1 };
const decomposed = 'e\u0301 a\u0308';

describe('readBackIs', () => {
  it('passes the text as sent, is non_strict on its NFC form, fails other characters', () => {
    expect(readBackIs('text', decomposed)({ sent, readBack: decomposed }).verdict).toBe('passed');
    expect(readBackIs('text', decomposed)({ sent, readBack: decomposed.normalize('NFC') }).verdict).toBe('non_strict');
    expect(readBackIs('text', decomposed)({ sent, readBack: 'e a' }).verdict).toBe('failed');
  });
});
