/** What the global setup hands to the browser tests (e2e/.state.json). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server';

export type E2eState = {
  baseURL: string;
  pid: number;
  dir: string;
  databaseUrl: string;
  demo: {
    organization: { id: string; name: string };
    workspaces: { id: string; name: string; key: string; accessKey: string; secret: string }[];
  };
  /** A key of the first demo workspace with contacts:read-only only. */
  limitedKey: string;
  /** A workspace of the demo organization with no key saved anywhere. */
  keylessWorkspace: { id: string; name: string };
};

/** Where the state is written: `E2E_STATE_FILE`, so two runs on one machine do not share a server. */
export function stateFile(): string {
  return process.env.E2E_STATE_FILE ?? join(ROOT, 'e2e', '.state.json');
}

export function readState(): E2eState {
  return JSON.parse(readFileSync(stateFile(), 'utf8')) as E2eState;
}
