// Which site an audit belongs to: the host of its first sitemap URL (or, for uploads, of its first declared
// URL), lower case, with its port when not the scheme's default (URL.host already does both). Pure.

/** The site host of an absolute http(s) URL; null for anything else. */
export function siteHostOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.host.toLowerCase() || null;
  } catch {
    return null;
  }
}
