import { defineConfig } from '@playwright/test';
import { CHROMIUM_HEADLESS_SHELL } from './scripts/ensure-chromium.mjs';

/**
 * Browser tests: Debian's Chromium driven by the Playwright test runner against the real server, which the
 * global setup starts on a free port over a fresh SQLite file (e2e/global-setup.ts).
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  outputDir: 'test-results/artifacts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Three at a time on CI's two cores: each test waits on the service, timers and the budget for part of its time.
  // Measured on this machine, CI=1: 141 tests in 17.8 min with 3 workers, none flaky; 24.5 min with 2 (a busier
  // machine); 4 made the throttling tests miss their windows. `E2E_WORKERS` overrides it.
  workers: Number(process.env.E2E_WORKERS) || 3,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // A trace is recorded when a failed test runs again (CI=1 retries once), not throughout every test: recording
    // snapshots of every step costs CPU in each of the hundred-odd tests that pass.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // As a person who asked their system for less motion: the console then opens drawers and dialogs without their
    // transitions (Mantine's respectReducedMotion), so no step waits for an animation and no frame is drawn for one.
    reducedMotion: 'reduce',
    launchOptions: {
      // Debian's Chromium as its headless shell (the package chromium-headless-shell: the same Chromium without the
      // browser's own interface, which is what Playwright runs headless by default): 0.71 of the full browser's CPU
      // and 0.75 of its time for the same tests (docs/benchmarks.md, "Two page loads fewer a test, and the headless
      // shell" and "The headless shell, and the browser tests beside the unit tests again").
      // `CHROMIUM_PATH=/usr/bin/chromium` runs them in the full browser.
      executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_HEADLESS_SHELL,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
