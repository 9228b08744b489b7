/**
 * Connecting with a pasted key in one click (issue 14 point 4), shared by /connect and the add-key dialog:
 * `checkKey` checks the key with `GET /authorization` and gives the connection to save; the caller saves it and
 * announces it (lib/key-announcement.ts: the workspace's shell then says what the key allows) and opens the workspace.
 * Also the words for a failure.
 */
import type { Authorization } from '@/api/authorization';
import { isApiError } from '@/api/api-error';
import { createApiClient } from '@/api/client';
import type { SavedConnection } from './connections';

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

/** Checks `input`'s key with `GET /authorization`; the connection to save. Throws the client's ApiError when refused. */
export async function checkKey(input: KeyInput): Promise<SavedConnection> {
  const authorization = await createApiClient({ baseUrl: input.baseUrl, apiKey: input.apiKey }).authorization();
  return toConnection(input, authorization);
}

/** Why connecting failed, in words. */
export function describeError(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401 || error.status === 403) return `The service refused this key (${error.status}: ${error.message}). Check that it is complete and not revoked.`;
    if (error.status === 0) return `Could not reach the service: ${error.message}`;
    return `${error.status}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
