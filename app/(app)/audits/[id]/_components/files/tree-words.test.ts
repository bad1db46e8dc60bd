import { describe, expect, it } from 'vitest';
import type { SitemapFileDto } from '@/lib/audits/schema';
import { position, sizeText } from './tree-words';

const file = (compressedBytes: number | null, uncompressedBytes: number | null) =>
  ({ compressedBytes, uncompressedBytes }) as SitemapFileDto;
const error = (message: string, line: number | null, column: number | null) =>
  ({ code: 'xml_malformed', message, line, column }) as NonNullable<SitemapFileDto['error']>;

describe('sizeText', () => {
  it('shows a gzipped file as packed → unpacked, with both named in the title', () => {
    expect(sizeText(file(2048, 10240))).toEqual({
      text: '2 KiB → 10 KiB',
      title: '2 KiB compressed, 10 KiB uncompressed',
    });
  });
  it('shows one size when there is one, and none when nothing was read', () => {
    expect(sizeText(file(null, 512))).toEqual({ text: '512 B' });
    expect(sizeText(file(512, 512))).toEqual({ text: '512 B' });
    expect(sizeText(file(null, null))).toBeNull();
  });
});

describe('position', () => {
  it('adds the line and column unless the message already says the line', () => {
    expect(position(error('Unclosed tag', 12, 4))).toBe(' (line 12, column 4)');
    expect(position(error('Unclosed tag', 12, null))).toBe(' (line 12)');
    expect(position(error('Unclosed tag at line 12', 12, 4))).toBe('');
    expect(position(error('Not XML', null, null))).toBe('');
  });
});
