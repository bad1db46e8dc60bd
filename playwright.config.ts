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

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright',
  timeout: 90_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
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
    {
      name: 'app',
      testMatch: /\.spec\.ts/,
      dependencies: ['setup'],
      use: { storageState: path.join('test-results', '.auth', 'reviewer.json') },
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
        // e2e/sites.spec.ts waits for a `* * * * *` schedule: pg-boss looks for due cron schedules each
        // second instead of every 30 s, and a failed webhook delivery is tried again within seconds.
        SCHEDULER_MONITOR_SECONDS: '1',
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
