/** `GET /workspaces` (endpoint 15): the organization's workspaces (docs/decisions.md sections 6 and 7). */
import * as z from 'zod/mini';
import { DEFAULT_PAGE_CAPS, isoTime, listEnvelope, listQuery } from './common';

export const workspaceSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
  organizationId: z.string(),
  created: isoTime,
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspaceListSchema = listEnvelope(workspaceSchema);
export const workspaceListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: true });
