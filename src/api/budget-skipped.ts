/**
 * The request priorities of the key's budget and the error of a request it refused (issue 19; the budget itself is
 * src/api/rate-budget.ts). A module of its own so that code which only recognises the error (the query client's
 * retry policy, on every first screen) does not carry the budget.
 */

/** Who is waiting for a request, in the order they are served. */
export type RequestPriority = 'person' | 'job' | 'speculative';

/** The error of a speculative request refused because the budget is low (it was never sent). */
export class BudgetSkippedError extends Error {
  constructor(message = 'Not sent: the request budget is low') {
    super(message);
    this.name = 'BudgetSkippedError';
  }
}

/** True for the error of a speculative request the budget refused. */
export function isBudgetSkipped(error: unknown): error is BudgetSkippedError {
  return error instanceof Error && error.name === 'BudgetSkippedError';
}

