/**
 * Request priorities of the key's rate budget (STYLE.md "Requests are a budget"). Only the type lives here on
 * the `import` branch: the lead's rate budget (scheduler, reserve, `BudgetSkippedError`) replaces this file.
 * - `person`: what the person waits for (the default);
 * - `job`: a long job's requests (an import's look-ups), which wait while the budget is at its reserve;
 * - `speculative`: prefetches and counts, dropped when the budget is low.
 */
export type RequestPriority = 'person' | 'job' | 'speculative';
