// Soft 404s: a page that answers 200 but is the site's "nothing here" page. Each host is probed once
// with a path that cannot exist; a checked page that looks like that answer, or whose title says
// "not found", is a soft 404.
import { randomBytes } from 'node:crypto';
import { checkLive, type LiveCheckOptions } from './fetch-live';
import { NEAR_IDENTICAL, similarity } from './text-similarity';
import type { HostProbe, LiveResult } from './types';

// "404" as a number of its own, and "not found" in the languages most sitemaps we see are written in.
const NOT_FOUND_TITLE = new RegExp(
  [
    '(^|[^0-9])404([^0-9]|$)',
    'not found',
    'page not found',
    'nicht gefunden',
    'introuvable',
    'non trouvée?',
    'no encontrad[ao]',
    'non trovat[ao]',
    'não encontrad[ao]',
    'niet gevonden',
    'nie znaleziono',
  ].join('|'),
  'i',
);

/** A path that cannot exist on `origin` ("https://example.com"); random, so no cache or real page answers it. */
export function probeUrlFor(origin: string): string {
  return `${origin}/sitemap-audit-probe-${randomBytes(8).toString('hex')}`;
}

/** The probe kept from the check of `probeUrlFor(origin)` (a run may check it in its politeness batch). */
export function hostProbeOf(origin: string, live: LiveResult): HostProbe {
  return {
    origin,
    url: live.url,
    finalUrl: live.error ? null : live.finalUrl,
    status: live.finalStatus,
    title: live.title,
    textHash: live.textHash,
    fingerprint: live.fingerprint ?? null,
  };
}

/** Checks one probe URL on its own (without a run's host limits and robots.txt). */
export async function probeHost(origin: string, options: LiveCheckOptions = {}): Promise<HostProbe> {
  return hostProbeOf(origin, await checkLive(probeUrlFor(origin), options));
}

export type Soft404Match = 'title_says_not_found' | 'same_title_as_probe' | 'same_text_as_probe';

/** Why `result` is a soft 404, or null when it is not one (or cannot be judged). */
export function soft404Match(result: LiveResult, probe: HostProbe | null | undefined): Soft404Match | null {
  if (result.error !== null || result.finalStatus !== 200) return null;
  if (result.title !== null && NOT_FOUND_TITLE.test(result.title)) return 'title_says_not_found';
  if (!probe || probe.status === null) return null;
  // The page the probe was redirected to (often the home page) is that page itself, not a soft 404;
  // a checked URL that is redirected there too is one (Google's "redirect to the home page").
  const redirected = result.chain.length > 1;
  if (probe.finalUrl && result.finalUrl === probe.finalUrl && !redirected) return null;
  if (probe.status === 200 && probe.title !== null && result.title === probe.title)
    return 'same_title_as_probe';
  if (probe.textHash !== null && result.textHash === probe.textHash) return 'same_text_as_probe';
  const ours = result.fingerprint;
  if (ours && probe.fingerprint && similarity(ours, probe.fingerprint) >= NEAR_IDENTICAL) {
    return 'same_text_as_probe';
  }
  return null;
}

export function isSoft404(result: LiveResult, probe: HostProbe | null | undefined): boolean {
  return soft404Match(result, probe) !== null;
}
