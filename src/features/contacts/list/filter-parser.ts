/**
 * The contacts screen's `$filter` parser and field check (src/api/filter/parse.ts, check.ts; about 2 KB of gzip),
 * kept out of the screen's first load (issue 16's budget, docs/bundle.md): they are needed only when the address
 * holds an advanced filter (the page waits for them then: `use(loadFilterParser())`) or when the Advanced box
 * opens (contact-filters.tsx starts the load). `contactFilterParser()` is the loaded module, or undefined before.
 */
import type * as Impl from './filter-parser-impl';

let loaded: typeof Impl | undefined;
let loading: Promise<typeof Impl> | undefined;

/** Loads the parser once; the same promise on every call (so React's `use` can wait for it). */
export function loadFilterParser(): Promise<typeof Impl> {
  loading ??= import('./filter-parser-impl').then((module) => (loaded = module));
  return loading;
}

/** The parser, once `loadFilterParser()` has resolved; undefined before. */
export function contactFilterParser(): typeof Impl | undefined {
  return loaded;
}

/** The parser, or an Error naming the missing `await loadFilterParser()` (a programming error, never a user's). */
export function requireFilterParser(): typeof Impl {
  if (!loaded) throw new Error('The $filter parser is not loaded yet: await loadFilterParser() first');
  return loaded;
}
