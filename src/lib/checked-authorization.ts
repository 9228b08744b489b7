/**
 * The `GET /authorization` answers of keys checked in this tab (src/lib/connect-key.ts), so the workspace's shell
 * need not ask again right after connecting (issue 19: connecting checks the key once). A module of its own, so the
 * shell does not carry the connect code.
 */
import type { Authorization } from '@/api/authorization';

const checked = new Map<string, { authorization: Authorization; at: number }>();

/** Records the answer a key check just got (keyed by its workspace, `feed.id`). */
export function rememberCheckedAuthorization(authorization: Authorization): void {
  checked.set(authorization.feed.id, { authorization, at: Date.now() });
}

/** The answer a key check of `workspaceId` got in this tab, with its time (epoch ms), if any. */
export function checkedAuthorization(workspaceId: string): { authorization: Authorization; at: number } | undefined {
  return checked.get(workspaceId);
}
