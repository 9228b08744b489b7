/**
 * List state in the URL (docs/style.md, lists): page, size, sort and filters live in the search params, parsed with
 * a zod schema so a malformed URL falls back to defaults instead of crashing. Changing anything but the page
 * resets to the first page; every change is a history entry, so Back and Forward move between views.
 */
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import * as z from 'zod/mini';

/** Parses `params` with `schema` key by key: a bad value falls back to that key's default, not the whole state. */
export function parseSearch<Shape extends z.core.$ZodShape>(schema: z.ZodMiniObject<Shape>, params: URLSearchParams): z.output<z.ZodMiniObject<Shape>> {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const whole = schema.safeParse(raw);
  if (whole.success) return whole.data;
  const good: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (z.pick(schema, { [key]: true } as never).safeParse({ [key]: value }).success) good[key] = value;
  }
  const fallback = schema.safeParse(good);
  return fallback.success ? fallback.data : schema.parse({});
}

/** The search string for `state`: keys equal to their default (or empty) are left out, so URLs stay short. */
export function formatSearch(state: Record<string, unknown>, defaults: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    if (value === undefined || value === null || value === '' || value === defaults[key]) continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  return params;
}

/**
 * `useSearchParams` for changes that build on the URL: `[params, latest, write]`, where `latest()` is the URL's
 * params as last written, even before that write has rendered. Two changes made before the first one's URL renders
 * (a person filling two fields fast, an autofill, a busy phone) each build on the one before; built on `params`, the
 * second would put back what the first changed (seen in CI: a date range's "from" lost when "to" followed at once).
 */
export function useSearchParamsWriter(): [URLSearchParams, () => URLSearchParams, (next: URLSearchParams) => void] {
  const [params, setParams] = useSearchParams();
  // The last write and the params it was made over: once the URL's params change, they are the latest.
  const written = useRef<{ over: URLSearchParams; next: URLSearchParams } | null>(null);
  const latest = useCallback(() => (written.current?.over === params ? written.current.next : params), [params]);
  const write = useCallback(
    (next: URLSearchParams) => {
      written.current = { over: params, next };
      setParams(next);
    },
    [params, setParams],
  );
  return [params, latest, write];
}

/**
 * `[state, update]` for a list whose state lives in the URL. `update(patch)` merges the patch into the URL's state as
 * last written (`useSearchParamsWriter`); unless the patch is only `{ page }`, the page goes back to 1 (a changed
 * filter or size shows the first page).
 */
export function useListSearch<Shape extends z.core.$ZodShape & { page: z.core.$ZodType }>(schema: z.ZodMiniObject<Shape>) {
  const [params, latest, write] = useSearchParamsWriter();
  const state = useMemo(() => parseSearch(schema, params), [schema, params]);
  const defaults = useMemo(() => schema.parse({}) as Record<string, unknown>, [schema]);
  const update = useCallback(
    (patch: Partial<z.output<z.ZodMiniObject<Shape>>>) => {
      const onlyPage = Object.keys(patch).every((key) => key === 'page');
      const next = { ...(parseSearch(schema, latest()) as Record<string, unknown>), ...(patch as Record<string, unknown>) };
      if (!onlyPage) next.page = defaults.page;
      write(formatSearch(next, defaults));
    },
    [schema, latest, defaults, write],
  );
  return [state, update] as const;
}
