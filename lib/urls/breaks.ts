// Where a long URL may wrap: after each run of separators ("/", "-", "?", "&", "=", ".", "_"), so a narrow
// column breaks "…/old/" | "page-001" rather than "…/old/p" | "age-001". Pure; the parts join to the URL.

export function urlBreakParts(url: string): string[] {
  return url.match(/[^/\-?&=._]*[/\-?&=._]*/g)?.filter((part) => part !== '') ?? [url];
}
