/**
 * Loads zod's English issue messages (src/api/zod-messages.ts) once, on demand: the console starts without them
 * (issue 16's first-screen budgets, docs/bundle.md) and loads them at the page's first interaction (src/app/app.tsx)
 * or when an answer fails its schema (src/api/client.ts, which checks the answer again once they are in, so its
 * message is worded as before). Resolves when they are configured; the same promise on every call.
 */
let loading: Promise<void> | undefined;

export function loadZodMessages(): Promise<void> {
  loading ??= import('./zod-messages').then(() => undefined);
  return loading;
}
