import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3217);
const fixturePort = Number(process.env.FIXTURE_PORT ?? 3218);
// The fixture server's fake Google for URL Inspection (e2e/fixture-server.ts).
const gscFakePort = Number(process.env.GSC_FAKE_PORT ?? fixturePort + 2);
// Playwright cannot download its own browser here; Debian's chromium is used when present.
const executablePath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

const reviewer = path.join('test-results', '.auth', 'reviewer.json');
const SPOT_SITE_SPECS = /(spot-checks|spot-check-runs|spot-check-report)\.spec\.ts/;
// The sweep of every page and state (e2e/page-sweep.ts), in two files that run side by side.
const PAGES_SPECS = /(^|\/)pages-[\w-]+\.spec\.ts$/;
// The slowest of the other specs (their time in test-results/playwright.json, a 2-core machine), queued
// before the rest so that none of them starts last and runs alone at the end.
const SLOW_SPECS =
  /(^|\/)(review-bulk|audits|audit-page|a11y|share-report|audits-list|gsc-inspect|sites)\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright',
  timeout: 90_000,
  expect: { timeout: 30_000 },
  // Spec files run side by side (the tests of a file in order, in one worker), against one app server. Two
  // workers on the 2-core CI machine: a third only made each test slower (server, worker, Postgres and the
  // browsers share the cores). Specs are independent: each makes its own audits, sites, users and holds,
  // and finds them by their own names.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1366, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
  },
  projects: [
    { name: 'setup', testMatch: /auth\.setup\.ts/ },
    // Projects are queued in this order, and a project's files by name: the longest files first, so none
    // of them is left running alone at the end.
    {
      name: 'pages',
      testMatch: PAGES_SPECS,
      dependencies: ['setup'],
      use: { storageState: reviewer },
    },
    // The specs that spot-check the fixture's spot site, one at a time: its hold (POST /__hold) holds
    // /gone-a and /back for every run that fetches them, not only the holding spec's.
    {
      name: 'spot-site',
      testMatch: SPOT_SITE_SPECS,
      dependencies: ['setup'],
      workers: 1,
      use: { storageState: reviewer },
    },
    {
      name: 'app-slow',
      testMatch: SLOW_SPECS,
      dependencies: ['setup'],
      use: { storageState: reviewer },
    },
    {
      name: 'app',
      testMatch: /\.spec\.ts/,
      testIgnore: [PAGES_SPECS, SPOT_SITE_SPECS, SLOW_SPECS],
      dependencies: ['setup'],
      use: { storageState: reviewer },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/fixture-server.ts',
      url: `http://127.0.0.1:${fixturePort}/health`,
      env: { FIXTURE_PORT: String(fixturePort), GSC_FAKE_PORT: String(gscFakePort) },
      reuseExistingServer: false,
    },
    {
      command: 'node --conditions=react-server --import tsx scripts/start.ts',
      url: `http://127.0.0.1:${port}/api/v1/audits`,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join('test-results', 'e2e-data'),
        ALLOW_PRIVATE_NETWORK: 'true',
        // Only URL Inspection reads these (e2e/gsc-inspect.spec.ts): Google is the fixture server's fake,
        // with a small daily quota so a run is seen waiting for the next day.
        GOOGLE_OAUTH_TOKEN_URL: `http://127.0.0.1:${gscFakePort}/token`,
        GSC_API_BASE_URL: `http://127.0.0.1:${gscFakePort}`,
        GSC_INSPECTION_DAILY_QUOTA: '4',
        // Two audits' steps at once, as two specs run at once (one slot per queue made one spec's audits
        // wait behind another's).
        WORKER_CONCURRENCY: '2',
        // (e2e/sites.spec.ts sends the schedules' tick itself: e2e/database.ts.) A failed webhook delivery
        // is tried again within seconds.
        WEBHOOK_RETRY_BASE_SECONDS: '1',
        // e2e/site-webhooks.spec.ts: a webhook to a closed port is paused at its first failed attempt.
        WEBHOOK_PAUSE_AFTER_FAILURES: '1',
      },
      timeout: 240_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    },
  ],
});
