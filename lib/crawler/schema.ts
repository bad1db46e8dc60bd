// The crawler's request rules belong to the audit's options (lib/audits, a floor the crawler builds on).
export * from '@/lib/audits/crawler-schema';
