import { describe, expect, it } from 'vitest';
import { clipForDisplay, DISPLAY_MAX_CHARS, isClipped } from '@/lib/core/display';

describe('clipForDisplay', () => {
  it('leaves text within the bound alone', () => {
    const text = 'x'.repeat(DISPLAY_MAX_CHARS);
    expect(clipForDisplay(text)).toBe(text);
    expect(isClipped(text)).toBe(false);
    expect(clipForDisplay(null)).toBeNull();
  });

  it('cuts longer text to the bound, with an ellipsis and the full length', () => {
    const text = `https://example.com/${'a'.repeat(5 * 1024 * 1024)}`;
    const shown = clipForDisplay(text);
    expect(shown.startsWith(text.slice(0, DISPLAY_MAX_CHARS))).toBe(true);
    expect(shown.slice(DISPLAY_MAX_CHARS)).toBe(`… (${text.length} characters in all)`);
    expect(shown.length).toBeLessThan(DISPLAY_MAX_CHARS + 40);
    expect(isClipped(shown)).toBe(true);
    // Cutting a cut text again changes nothing (the reads cut in SQL, some callers cut again).
    expect(clipForDisplay(shown)).toBe(shown);
  });
});
