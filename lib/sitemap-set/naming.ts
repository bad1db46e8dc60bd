// Names of the corrected set's files: `<section>-sitemap-<n>.xml[.gz]`, the section being the URLs'
// first path segment made safe for any file system and URL (root pages: `pages`).

/** A file-name stem from a first path segment: lowercase letters, digits and single dashes, ≤ 60 chars. */
export function sectionStem(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // A malformed escape: the raw text is made safe below like any other.
  }
  const stem = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  if (segment === '') return 'pages';
  return stem === '' ? 'section' : stem;
}

/** Numbers files per stem, so two segments made the same stem (`Products`, `products`) never share a name. */
export class FileNamer {
  private readonly used = new Map<string, number>();

  constructor(private readonly gzip: boolean) {}

  next(segment: string): { stem: string; name: string } {
    const stem = sectionStem(segment);
    const n = (this.used.get(stem) ?? 0) + 1;
    this.used.set(stem, n);
    return { stem, name: `${stem}-sitemap-${n}.xml${this.gzip ? '.gz' : ''}` };
  }
}
