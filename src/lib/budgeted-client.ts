/**
 * Clients on a key's shared budget (issue 19 point 1, minimal form; see src/api/rate-budget.ts): one budget per key
 * (base URL and API key) in this tab, so the workspace on screen, the overview's counts and the cross-workspace
 * search of issue 24 all draw on, and feed, the same count of a key's requests.
 */
import { type ApiClient, createApiClient } from '@/api/client';
import { type RateBudget, createRateBudget } from '@/api/rate-budget';
import type { SavedConnection } from './connections';

const budgets = new Map<string, RateBudget>();

/** The budget of the key of `connection` (one per base URL and key, created on first use). */
export function budgetOf(connection: Pick<SavedConnection, 'baseUrl' | 'apiKey'>): RateBudget {
  const id = `${connection.baseUrl}\n${connection.apiKey}`;
  let budget = budgets.get(id);
  if (!budget) {
    budget = createRateBudget();
    budgets.set(id, budget);
  }
  return budget;
}

/** A typed client for `connection` whose requests pass its key's budget (priority per call, default 'person'). */
export function budgetedClient(connection: Pick<SavedConnection, 'baseUrl' | 'apiKey' | 'basic'>): ApiClient {
  const { baseUrl, apiKey, basic } = connection;
  return createApiClient({ baseUrl, apiKey, basic, budget: budgetOf(connection) });
}
