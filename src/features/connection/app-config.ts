/**
 * `/app-config.json`, served by this console's own server (not part of the API): the API base URL and, when the
 * server seeded demo data, the demo workspaces' credentials for one-click connecting (issue 4); in proxy mode
 * (issue 15) `upstream.apiUrl`, the service `/api` is forwarded to, and never any demo.
 *
 * Read by hand rather than with a zod schema (issue 38 point 3): the file is the console's own, not the contract's,
 * and it is the only answer /connect reads, so checking it with zod put all of zod's core (about 10 KB of gzip) on
 * the first screen a newcomer loads. The reader is as strict as the schema was: unknown fields are tolerated, a
 * missing `apiBaseUrl` is `/api`, a missing `demo` or `upstream` is null, anything else of the wrong type refuses the
 * whole file (and the page then uses the defaults).
 */
import { queryOptions } from '@tanstack/react-query';

export type DemoWorkspace = { id: string; name: string; key: string; accessKey: string; secret: string };
export type AppConfig = {
  apiBaseUrl: string;
  demo: { organization: { id: string; name: string }; workspaces: DemoWorkspace[] } | null;
  upstream: { apiUrl: string } | null;
};

class AppConfigError extends TypeError {
  override name = 'AppConfigError';
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppConfigError(`${path} must be an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new AppConfigError(`${path} must be a string`);
  return value;
}

/** `value` read as the config (see above); throws `AppConfigError` when a field has the wrong type. */
export function readAppConfig(value: unknown): AppConfig {
  const config = object(value, 'the config');
  const demo = config.demo === undefined || config.demo === null ? null : object(config.demo, 'demo');
  const upstream = config.upstream === undefined || config.upstream === null ? null : object(config.upstream, 'upstream');
  const organization = demo ? object(demo.organization, 'demo.organization') : null;
  if (demo && !Array.isArray(demo.workspaces)) throw new AppConfigError('demo.workspaces must be an array');
  return {
    ...config,
    apiBaseUrl: config.apiBaseUrl === undefined ? '/api' : text(config.apiBaseUrl, 'apiBaseUrl'),
    demo:
      demo && organization
        ? {
            ...demo,
            organization: { ...organization, id: text(organization.id, 'demo.organization.id'), name: text(organization.name, 'demo.organization.name') },
            workspaces: (demo.workspaces as unknown[]).map((item, index) => {
              const workspace = object(item, `demo.workspaces.${index}`);
              const field = (name: keyof DemoWorkspace) => text(workspace[name], `demo.workspaces.${index}.${name}`);
              return { ...workspace, id: field('id'), name: field('name'), key: field('key'), accessKey: field('accessKey'), secret: field('secret') };
            }),
          }
        : null,
    upstream: upstream ? { ...upstream, apiUrl: text(upstream.apiUrl, 'upstream.apiUrl') } : null,
  };
}

/** Fetches the config; a server without the endpoint (a plain static host) gives the defaults. */
async function fetchAppConfig(): Promise<AppConfig> {
  const response = await fetch('/app-config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) return readAppConfig({});
  return readAppConfig(await response.json());
}

/** The config, fetched once (it does not change while the server runs); a failed fetch leaves the defaults to the page. */
export const appConfigQuery = queryOptions({
  queryKey: ['app-config'],
  queryFn: fetchAppConfig,
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
