// Messages between the crawl step and the crawl's thread (thread.ts ↔ crawl-thread.ts).
import type { NormalizationProfile } from '@/lib/urls/normalize';
import type { CrawlerSettings, CrawlProgress } from './types';

export interface CrawlThreadInput {
  auditId: string;
  settings: CrawlerSettings;
  profile: NormalizationProfile;
  /** The trap limits, when not the defaults (the benchmark's one-pattern site). */
  trap?: { patternBudget?: number; queryVariants?: number };
}

/** From the parent: stop the crawl (a cancel, a lost run). */
export const ABORT = 'abort';

export type FromCrawlThread =
  | { type: 'flush'; progress: CrawlProgress }
  | { type: 'done'; progress: CrawlProgress }
  | { type: 'failed'; message: string; stack?: string; aborted: boolean };
