// Where a long URL may wrap: after each run of separators ("/", "-", "?", "&", "=", "_"), so a narrow
// column breaks "…/old/" | "page-001" rather than "…/old/p" | "age-001". Not after a dot: a host or an
// address ("www.example.com", "127.0.0.1:3218") and a file name ("sitemap.xml") read as one word. Pure; the
// parts join to the URL.

export function urlBreakParts(url: string): string[] {
  return url.match(/[^/\-?&=_]*[/\-?&=_]*/g)?.filter((part) => part !== '') ?? [url];
}
