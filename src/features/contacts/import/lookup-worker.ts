/**
 * One look-up worker of the plan (issue 20 point 6): a module Web Worker started by plan-worker.ts through
 * lookup-workers.ts, which retires it after a number of look-ups. The work and its messages are lookup-session.ts.
 */
import { type LookupMessage, type LookupRequest, lookupSession } from './lookup-session';

const scope = self as unknown as { postMessage(message: LookupMessage): void; onmessage: ((event: MessageEvent<LookupRequest>) => void) | null };
const handle = lookupSession((message) => scope.postMessage(message));
scope.onmessage = (event) => handle(event.data);
