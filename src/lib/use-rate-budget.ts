/**
 * The request budget of the workspace on screen, for the header's meter and the throttle notice (issue 19): its
 * state (`BudgetState`, src/api/rate-budget.ts), re-read when it changes and every second while a wait or a refill
 * is ahead, so countdowns move.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { BudgetState, RateBudget } from '@/api/rate-budget';
import { useWorkspaceApi } from './workspace-api';
import { useThrottle } from './throttle';
import { rateBudgetFor } from './budgeted-client';

/** The budget of the key of the workspace on screen. */
export function useWorkspaceBudget(): RateBudget {
  const { connection } = useWorkspaceApi();
  return rateBudgetFor(connection.baseUrl, connection.apiKey);
}

/** `budget`'s state and the time now (epoch ms), ticking each second while something is counted down. */
export function useBudgetState(budget: RateBudget): { state: BudgetState; now: number } {
  const state = useSyncExternalStore(budget.subscribe, budget.state);
  const [now, setNow] = useState(() => Date.now());
  const ahead = Math.max(state.throttledUntil, state.resetAt ?? 0);
  useEffect(() => {
    setNow(Date.now());
    if (ahead <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ahead]);
  return { state, now };
}

/**
 * True while the person's requests wait: in line for the key's budget to refill, or after a 429 (issue 19, point 3:
 * a list then marks what it shows as the last known answer).
 */
export function useRequestsWaiting(): boolean {
  // Not `useBudgetState`: its countdown ticks every second of every window, and the list pages that ask this
  // should re-render only when the answer changes: when a request starts or stops waiting, or a wait ends.
  // Primitive snapshots: the page renders again only when one of them changes, not at every request the budget
  // counts (a job's requests change `remaining` hundreds of times a second; issue 20 point 6).
  const budget = useWorkspaceBudget();
  const personWaiting = useSyncExternalStore(budget.subscribe, () => budget.state().waiting.person > 0);
  const throttledUntil = useSyncExternalStore(budget.subscribe, () => budget.state().throttledUntil);
  const throttle = useThrottle();
  const until = Math.max(throttledUntil, throttle.until);
  const [, setEnded] = useState(0);
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setEnded(until), left + 10);
    return () => clearTimeout(timer);
  }, [until]);
  return personWaiting || until > Date.now();
}
