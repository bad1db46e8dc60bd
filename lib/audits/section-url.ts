// The audit page's selected section (tab) in the URL, beside the review's own query state (pure). The
// first section is left out of the URL, so the review's links, which carry no `tab`, open the review.

/** The section to show: the one the URL asks for when it is on the page, else the first. */
export function chosenSection(ids: readonly string[], asked: string | null): string | undefined {
  return asked !== null && ids.includes(asked) ? asked : ids[0];
}

/** The query string (without `?`) that selects `id`, every other parameter kept as it is. */
export function sectionSearch(search: string, id: string, first: string | undefined): string {
  const params = new URLSearchParams(search);
  if (id === first) params.delete('tab');
  else params.set('tab', id);
  return params.toString();
}
