/**
 * Connecting with a pasted key in one click (issue 14 point 4), shared by /connect and the add-key dialog:
 * `checkKey` checks the key with `GET /authorization` and gives the connection to save; the caller saves it and
 * announces it (lib/key-announcement.ts: the workspace's shell then says what the key allows) and opens the workspace.
 * Also the words for a refused key.
 *
 * The typed client (with every endpoint's schemas) is imported when a key is checked, not with this module, so
 * /connect's first screen does not carry it (issue 16); `preloadKeyCheck` fetches it ahead of the click.
 */
import { t } from '@/i18n/i18n';
import type { Authorization } from '@/api/authorization';
import { isAuthError } from '@/api/api-error';
import { rememberCheckedAuthorization } from './checked-authorization';
import type { SavedConnection } from './connections';
import type { QueryClient } from '@tanstack/react-query';

/** What a user gives to connect: the API base URL, the key, "remember on this device", optional Basic credentials. */
export type KeyInput = { baseUrl: string; apiKey: string; remember: boolean; accessKey?: string; secret?: string };

/** The connection to save for `input`, once `GET /authorization` accepted its key. */
export function toConnection(input: KeyInput, authorization: Authorization): SavedConnection {
  return {
    workspaceId: authorization.feed.id,
    workspaceName: authorization.feed.name,
    organizationId: authorization.organization.id,
    organizationName: authorization.organization.name,
    baseUrl: input.baseUrl,
    apiKey: input.apiKey,
    permissions: authorization.permissions,
    basic: input.accessKey && input.secret ? { accessKey: input.accessKey, secret: input.secret } : undefined,
    remember: input.remember,
    savedAt: new Date().toISOString(),
  };
}

/** Starts loading the client `checkKey` uses (once; later calls get the same promise). */
export const preloadKeyCheck = (() => {
  let loading: Promise<typeof import('./budgeted-client')> | undefined;
  return () => (loading ??= import('./budgeted-client'));
})();

/**
 * Checks `input`'s key with `GET /authorization` (on the key's request budget, whose meter the answer starts);
 * the connection to save. Throws the client's ApiError when refused.
 */
export async function checkKey(input: KeyInput): Promise<SavedConnection> {
  const { budgetedClient } = await preloadKeyCheck();
  const authorization = await budgetedClient({ baseUrl: input.baseUrl, apiKey: input.apiKey }).authorization();
  rememberCheckedAuthorization(authorization);
  return toConnection(input, authorization);
}

/**
 * Where connecting lands (issue 35 point 5): the workspace's overview (`/w/<id>`) when its service names the
 * extension `stats` (its figures then cost one request, docs/decisions.md section 12), else its contacts
 * (`/w/<id>/contacts`). Asks `GET /extensions` once, into the cache the workspace reads (`extensionQuery`), so the
 * workspace does not ask again; a failure means none (the contacts), and a 429 is not waited out here.
 */
export async function landingPath(connection: Pick<SavedConnection, 'baseUrl' | 'apiKey' | 'workspaceId'>, queryClient: QueryClient): Promise<string> {
  // The query's module is in the workspace's chunk (vite.config.ts), which the key check has loaded: not on /connect's first screen.
  const [{ budgetedClient }, { extensionQuery }] = await Promise.all([preloadKeyCheck(), import('./extension-query')]);
  const api = budgetedClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });
  // Not waited out here: a 429 would hold the Connect button for up to two minutes with nothing said (the throttle
  // notice is the workspace's). It lands on the contacts, where the workspace asks again and waits with the notice.
  const names = await queryClient.fetchQuery({ ...extensionQuery(api, connection.baseUrl, connection.workspaceId), retry: false }).catch((): string[] => []);
  const workspace = `/w/${encodeURIComponent(connection.workspaceId)}`;
  return names.includes('stats') ? workspace : `${workspace}/contacts`;
}

/**
 * The sentence for a key `GET /authorization` refused (401, or 403 as a hosted service answers a wrong key,
 * docs/decisions.md section 4), where "this key cannot do that" would mislead; undefined for any other failure, which
 * the shared error sentences describe (src/lib/error-sentence.ts, issue 13). The service's words stay under Details.
 * From the `sentences` catalog: call it where that catalog is loaded (under `WithArea`, issue 23).
 */
export function keyRefusal(error: unknown): string | undefined {
  return isAuthError(error) ? t('sentences.keyRefused') : undefined;
}
