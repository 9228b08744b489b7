/**
 * `/app-config.json`, served by this console's own server (not part of the API): the API base URL and, when the
 * server seeded demo data, the demo workspaces' credentials for one-click connecting (issue 4); in proxy mode
 * (issue 15) `upstream.apiUrl`, the service `/api` is forwarded to, and never any demo.
 */
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';

const appConfigSchema = z.looseObject({
  apiBaseUrl: z._default(z.string(), '/api'),
  demo: z._default(
    z.nullable(
      z.looseObject({
        organization: z.looseObject({ id: z.string(), name: z.string() }),
        workspaces: z.array(z.looseObject({ id: z.string(), name: z.string(), key: z.string(), accessKey: z.string(), secret: z.string() })),
      }),
    ),
    null,
  ),
  upstream: z._default(z.nullable(z.looseObject({ apiUrl: z.string() })), null),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

/** Fetches the config; a server without the endpoint (a plain static host) gives the defaults. */
export const appConfigQuery = queryOptions({
  queryKey: ['app-config'],
  queryFn: async (): Promise<AppConfig> => {
    const response = await fetch('/app-config.json', { headers: { accept: 'application/json' } });
    if (!response.ok) return appConfigSchema.parse({});
    return appConfigSchema.parse(await response.json());
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
