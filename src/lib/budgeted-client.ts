/**
 * One request budget per API key for the whole console (issue 19): every client this tab makes for a key, the
 * screens' and the jobs', shares the key's `RateBudget` (src/api/rate-budget.ts), and the tabs of the browser share
 * it through its BroadcastChannel, named after a hash of the base URL and key (the channel is same-origin only, as
 * the keys' own channel in connections.ts is).
 *
 * The reserve kept for the person while jobs run is a setting of this device (localStorage
 * `workspace-admin.budget-reserve`, a share from 0 to 0.9, default 0.2: issue 19 point 4). What a budget knows of
 * the key's window survives a reload of the tab (budget-memory.ts).
 */
import { type ApiClient, createApiClient } from '@/api/client';
import { DEFAULT_RESERVE, type RateBudget, createRateBudget } from '@/api/rate-budget';
import { keepBudget, keptReading } from './budget-memory';
import type { SavedConnection } from './connections';
import { readLocal, writeLocal } from './local-state';

const RESERVE_KEY = 'workspace-admin.budget-reserve';
const budgets = new Map<string, RateBudget>();

/** FNV-1a of `text` as 8 hex digits: a channel name that does not spell out the key. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The reserve share saved on this device (0..0.9), default `DEFAULT_RESERVE`. */
export function savedReserve(): number {
  const value = readLocal<unknown>(RESERVE_KEY, DEFAULT_RESERVE);
  return typeof value === 'number' && value >= 0 && value <= 0.9 ? value : DEFAULT_RESERVE;
}

/** Saves the reserve share and applies it to every budget of this tab (other tabs apply it when they next start). */
export function saveReserve(share: number): void {
  writeLocal(RESERVE_KEY, share);
  for (const budget of budgets.values()) budget.setReserve(share);
}

/**
 * The BroadcastChannel name of `apiKey`'s budget on `baseUrl`: a worker that sends with this key makes its own
 * budget on this channel (`createRateBudget({ channelName })`) and shares the key's requests as a tab does.
 */
export function budgetChannelName(baseUrl: string, apiKey: string): string {
  return `workspace-admin.budget.${shortHash(`${baseUrl}\n${apiKey}`)}`;
}

/**
 * The shared budget of `apiKey` on `baseUrl` (made on first use, from what this tab knew of the key's window before a
 * reload: budget-memory.ts).
 */
export function rateBudgetFor(baseUrl: string, apiKey: string): RateBudget {
  const id = `${baseUrl}\n${apiKey}`;
  let budget = budgets.get(id);
  if (!budget) {
    const channelName = budgetChannelName(baseUrl, apiKey);
    const initial = keptReading(channelName);
    budget = createRateBudget({ channelName, reserve: savedReserve(), ...(initial ? { initial } : {}) });
    keepBudget(channelName, budget);
    budgets.set(id, budget);
  }
  return budget;
}

/** A typed client for `connection` on its key's shared budget (for code outside React, such as jobs). */
export function budgetedClient(connection: Pick<SavedConnection, 'baseUrl' | 'apiKey' | 'basic'>): ApiClient {
  const { baseUrl, apiKey, basic } = connection;
  return createApiClient({ baseUrl, apiKey, ...(basic ? { basic } : {}), budget: rateBudgetFor(baseUrl, apiKey) });
}

/** The last `X-RateLimit-Limit` seen for `connection`'s key, or null when no answer has carried one. */
export function rateLimitOf(connection: Pick<SavedConnection, 'baseUrl' | 'apiKey'>): number | null {
  return rateBudgetFor(connection.baseUrl, connection.apiKey).state().limit;
}
