/** Browser-test teardown: stops the server the setup started and removes its temp folder. */
import { rmSync } from 'node:fs';
import { readState } from './state';

export default async function globalTeardown() {
  const state = readState();
  try {
    process.kill(state.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(state.dir, { recursive: true, force: true });
}
