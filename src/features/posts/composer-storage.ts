/**
 * What the composer keeps in this browser's localStorage, per workspace (issue 7): the draft
 * (`workspace-admin.posts.draft.<workspaceId>`), the form's values as typed, with the time saved. The request
 * history lives in src/lib/post-history.ts (the overview of issue 24 reads it too).
 * Storage that is full, disabled or holds damaged JSON never breaks the composer: reads fall back to nothing.
 */
import { type ComposerValues, parseDraft } from './composer-form';

const draftKey = (workspaceId: string) => `workspace-admin.posts.draft.${workspaceId}`;

function readJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // quota exceeded or storage disabled: the draft just isn't kept
  }
}

/** A saved draft: the values and when they were saved (ISO). */
export type SavedDraft = { values: ComposerValues; savedAt: string };

/** The workspace's saved draft, or null when there is none (or it cannot be read). */
export function loadDraft(workspaceId: string): SavedDraft | null {
  const raw = readJson(draftKey(workspaceId));
  if (typeof raw !== 'object' || raw === null) return null;
  const values = parseDraft((raw as { values?: unknown }).values);
  const savedAt = (raw as { savedAt?: unknown }).savedAt;
  return values ? { values, savedAt: typeof savedAt === 'string' ? savedAt : new Date(0).toISOString() } : null;
}

/** Saves the draft; returns the saved time, or null when the browser refused to store it. */
export function saveDraft(workspaceId: string, values: ComposerValues, now = new Date()): string | null {
  const savedAt = now.toISOString();
  return writeJson(draftKey(workspaceId), { values, savedAt }) ? savedAt : null;
}

/** Forgets the workspace's draft. */
export function clearDraft(workspaceId: string): void {
  try {
    localStorage.removeItem(draftKey(workspaceId));
  } catch {
    // storage disabled: nothing was saved either
  }
}
