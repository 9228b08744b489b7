/**
 * The typed client of the workspace on screen, for features' queries (docs/style.md: components never fetch).
 * `WorkspaceApiProvider` builds it from the saved connection, on the key's shared request budget (issue 19,
 * budgeted-client.ts); `useWorkspaceApi()` reads it.
 */
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { ApiClient } from '@/api/client';
import { budgetedClient } from './budgeted-client';
import type { SavedConnection } from './connections';

export type WorkspaceApi = { api: ApiClient; workspaceId: string; connection: SavedConnection };

const WorkspaceApiContext = createContext<WorkspaceApi | null>(null);

export function WorkspaceApiProvider({ connection, children }: { connection: SavedConnection; children: ReactNode }) {
  const { baseUrl, apiKey, basic, workspaceId } = connection;
  const api = useMemo(() => budgetedClient({ baseUrl, apiKey, ...(basic ? { basic } : {}) }), [baseUrl, apiKey, basic]);
  const value = useMemo(() => ({ api, workspaceId, connection }), [api, workspaceId, connection]);
  return <WorkspaceApiContext.Provider value={value}>{children}</WorkspaceApiContext.Provider>;
}

/** The client, workspace id and connection of the workspace on screen. Throws outside a workspace route. */
export function useWorkspaceApi(): WorkspaceApi {
  const value = useContext(WorkspaceApiContext);
  if (!value) throw new Error('useWorkspaceApi must be used inside a workspace route');
  return value;
}
