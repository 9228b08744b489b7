/**
 * The JavaScript a screen costs as the browser loads it (issue 16): every script response the page receives from
 * the moment it is opened until the screen is usable and the network has been idle for a while, modulepreloads
 * and prefetches included, each counted at its gzip size (level 9, as scripts/bundle-report.mjs counts). The
 * budgets are in scripts/first-screens.json; e2e/first-screens.spec.ts fails over them, bench:ui prints them.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page, Request, Response } from '@playwright/test';
import { ROOT } from './server';

export const KB = 1024;

/**
 * A screen of scripts/first-screens.json: its name, its budget (the ceiling CI enforces) and issue 16's goal in KB
 * of gzip, its manifest chunks.
 */
export type FirstScreen = { name: string; budgetKB: number; goalKB: number; manifest: string[] };

/** The budgets of scripts/first-screens.json, by screen name. */
export function firstScreenBudgets(): Map<string, FirstScreen> {
  const { screens } = JSON.parse(readFileSync(`${ROOT}scripts/first-screens.json`, 'utf8')) as { screens: FirstScreen[] };
  return new Map(screens.map((screen) => [screen.name, screen]));
}

/** One script the page loaded: its path, size as sent and gzip size, in bytes. */
export type ScriptFile = { path: string; bytes: number; gzip: number };
export type ScriptWeight = { files: ScriptFile[]; gzip: number };

const isScript = (response: Response) =>
  response.request().resourceType() === 'script' || /javascript/i.test(response.headers()['content-type'] ?? '');

/**
 * Opens a screen with `open`, waits for `ready` (the screen usable), then until no request (but the change stream)
 * has been in flight for `quietMs` (default 1,000 ms, so idle-time prefetches are counted too), and returns the scripts received.
 * Use a fresh browser context (an empty HTTP cache), or every script counts as its cached copy's size.
 */
export async function measureScriptWeight(page: Page, open: () => Promise<unknown>, ready: () => Promise<unknown>, quietMs = 1000): Promise<ScriptWeight> {
  const bodies: Promise<ScriptFile | null>[] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  // The change stream (`GET /events`, issue 36) stays open by design: it is not loading, and it would never end.
  const counted = (request: Request) => !/\/api\/events$/.test(new URL(request.url()).pathname);
  const started = (request: Request) => {
    if (!counted(request)) return;
    inFlight += 1;
    lastActivity = Date.now();
  };
  const ended = (request: Request) => {
    if (!counted(request)) return;
    inFlight -= 1;
    lastActivity = Date.now();
  };
  const received = (response: Response) => {
    if (!isScript(response)) return;
    bodies.push(
      response.body().then(
        (body) => ({ path: new URL(response.url()).pathname, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }),
        () => null,
      ),
    );
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  page.on('response', received);
  try {
    await open();
    await ready();
    while (inFlight > 0 || Date.now() - lastActivity < quietMs) await page.waitForTimeout(100);
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
    page.off('response', received);
  }
  const files = (await Promise.all(bodies)).filter((file): file is ScriptFile => file !== null);
  return { files, gzip: files.reduce((sum, file) => sum + file.gzip, 0) };
}

/**
 * `name  123.4 KB gzip in 12 scripts (budget 160 KB: ok; goal 150 KB: over by 3.4 KB)`, then one line per script,
 * largest first.
 */
export function describeScriptWeight(name: string, weight: ScriptWeight, screen: Pick<FirstScreen, 'budgetKB' | 'goalKB'>): string {
  const verdict = weight.gzip <= screen.budgetKB * KB ? 'ok' : 'EXCEEDED';
  const goal = weight.gzip <= screen.goalKB * KB ? 'met' : `over by ${(weight.gzip / KB - screen.goalKB).toFixed(1)} KB`;
  const lines = [`${name.padEnd(16)} ${(weight.gzip / KB).toFixed(1).padStart(6)} KB gzip in ${weight.files.length} scripts (budget ${screen.budgetKB} KB: ${verdict}; goal ${screen.goalKB} KB: ${goal})`];
  for (const file of [...weight.files].sort((a, b) => b.gzip - a.gzip)) lines.push(`    ${(file.gzip / KB).toFixed(1).padStart(6)} KB  ${file.path}`);
  return lines.join('\n');
}
