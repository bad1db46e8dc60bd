// The floors of lib/, lowest first: a folder imports (at run time) only from its own floor or the floors
// below it, and no folders import each other round in a cycle. scripts/layers.test.ts checks both on every
// run; docs/architecture.md draws them. A new folder of lib/ goes on a floor here before it can land.
export const FLOORS: readonly { name: string; why: string; folders: readonly string[] }[] = [
  {
    name: 'core',
    why: 'no feature knowledge: errors, formatting, URLs, fetching, sitemap and crawl readers, the database',
    folders: ['core', 'urls', 'net', 'inflate', 'sitemap', 'crawl', 'db', 'security', 'generated'],
  },
  {
    name: 'platform',
    why: 'what every feature runs on: the queue, run lifecycle, health, accounts, API plumbing, browser client, upload storage',
    folders: ['queue', 'runs', 'health', 'auth', 'server', 'client', 'storage'],
  },
  {
    name: 'features',
    why: 'what users see: findings and their review, audits, hygiene, spot-checks, Search Console, sites',
    folders: [
      'findings',
      'review',
      'ingest',
      'reconcile',
      'audits',
      'hygiene',
      'spot-check',
      'crawler',
      'gsc',
      'sitemap-set',
      'report',
      'sites',
      'audit-runs',
    ],
  },
  {
    name: 'entry',
    why: 'the worker process: where run kinds and periodic tasks are put together',
    folders: ['worker'],
  },
  {
    name: 'tests',
    why: 'helpers only tests import (fixtures, fake servers, databases)',
    folders: ['test-support'],
  },
];
