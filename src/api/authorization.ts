/** `GET /authorization` (endpoint 1): the key's workspace, organization and permissions (docs/decisions.md section 4). */
import * as z from 'zod/mini';

export const authorizationSchema = z.looseObject({
  status: z.string(),
  feed: z.looseObject({ id: z.string(), name: z.string() }),
  organization: z.looseObject({ id: z.string(), name: z.string() }),
  permissions: z.record(z.string(), z.string()),
});
export type Authorization = z.infer<typeof authorizationSchema>;
