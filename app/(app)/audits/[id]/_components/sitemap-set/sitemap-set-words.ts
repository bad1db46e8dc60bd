// The corrected set's words and checks: a base URL the set may be served from, what it does to each file.
import { countText, formatCount } from '@/lib/core/format';
import type { SetFileChange } from '@/lib/sitemap-set/schema';

export const urlsText = (n: number) => countText(n, 'URL');

export function isBaseValid(text: string): boolean {
  return text === '' || (/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(text) && URL.canParse(text));
}

/** What the set does to one file, in words. */
export function changeText(file: SetFileChange): string {
  if (file.status === 'kept_as_is') {
    return file.kind === 'feed'
      ? 'A feed: not rewritten, its index keeps listing it.'
      : 'Not read in full: not rewritten, its index keeps listing it.';
  }
  if (file.kind === 'added') return `${urlsText(file.added)} added (approved add rows).`;
  const unit = file.kind === 'index' ? (n: number) => countText(n, 'child', 'children') : urlsText;
  const parts: string[] = [];
  if (file.status === 'dropped') parts.push(`every entry removed: left out of the set and of its index`);
  else
    parts.push(file.entries === file.urls ? unit(file.urls) : `${unit(file.entries)} → ${unit(file.urls)}`);
  if (file.removed > 0 && file.status !== 'dropped')
    parts.push(
      file.kind === 'index' ? `${formatCount(file.removed)} dropped` : `${formatCount(file.removed)} removed`,
    );
  if (file.replaced > 0) parts.push(`${formatCount(file.replaced)} replaced by the crawled URL`);
  if (file.parts.length > 1) parts.push(`split into ${file.parts.join(', ')}`);
  if (file.renamedFrom !== null) parts.push(`renamed from “${file.renamedFrom}”`);
  return `${parts.join('; ')}.`;
}
