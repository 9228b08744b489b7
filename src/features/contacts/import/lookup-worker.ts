/**
 * The plan's look-ups in a module Web Worker (issue 20 point 6), so the main thread is free to clean the rest of the
 * file while they run: a fetch costs the thread that sends it about 3 ms of CPU, and 2,202 look-ups of a
 * 100,000-row file kept the main thread busy three quarters of the time, so cleaning beside them on the same thread
 * gained nothing (bench:import). The work and its messages are lookup-session.ts; the page's side is
 * lookup-client.ts.
 */
import { type LookupMessage, type LookupRequest, lookupSession } from './lookup-session';

const scope = self as unknown as { postMessage(message: LookupMessage): void; onmessage: ((event: MessageEvent<LookupRequest>) => void) | null };
const handle = lookupSession((message) => scope.postMessage(message));
scope.onmessage = (event) => handle(event.data);
