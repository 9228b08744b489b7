/**
 * Leave guards for the console's router (issue 16): `useBlocker`, with react-router's own signature and states,
 * for the declarative `<Routes>` the console uses. react-router's blocker needs its data router
 * (`createBrowserRouter`), whose loader/action/fetcher engine is 16 KB of gzip the console never uses but every
 * first screen would download; its declarative router is the lighter entry point, and this module adds back the
 * one data-router feature the console uses (docs/style.md, forms: "leaving a dirty form asks first").
 *
 * How (react-router's own algorithm, `createRouter` in react-router 7, over the history it exports): the router
 * gets a history (`createGuardedHistory`) that asks the active blocker (the most recently mounted one, as
 * react-router does) before a push or replace, and when it blocks leaves the URL as it is; a Back or Forward
 * (POP), which the browser has already done, is undone with `history.go(-delta)` and redone with
 * `history.go(delta)` if the person proceeds. A POP to an entry react-router did not create (no index in its
 * state) cannot be undone and is not blocked, as in react-router. Closing the tab is not a navigation.
 */
import { type ReactNode, createContext, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { type Blocker, type BlockerFunction, type Location, type NavigationType, type To, UNSAFE_createBrowserHistory, parsePath } from 'react-router';

/** The history react-router's `unstable_HistoryRouter` takes. */
export type BrowserHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

const IDLE: Blocker = { state: 'unblocked', proceed: undefined, reset: undefined, location: undefined };

type Entry = { shouldBlock: BlockerFunction; blocker: Blocker; update: (blocker: Blocker) => void };

/** A browser history whose navigations registered blockers can hold (see the module's docstring). */
export type GuardedHistory = {
  history: BrowserHistory;
  /** Registers a blocker under `key`; returns its removal. The last one registered is the active one. */
  register(key: string, entry: Omit<Entry, 'blocker'>): () => void;
};

/** `to` as the location a push or replace from `current` leads to (react-router's `createLocation`). */
function locationOf(current: Location, to: To, state: unknown): Location {
  const path = typeof to === 'string' ? parsePath(to) : to;
  return { pathname: current.pathname, search: '', hash: '', ...path, state: state ?? null, key: 'blocked' } as Location;
}

export function createGuardedHistory(): GuardedHistory {
  const inner = UNSAFE_createBrowserHistory({ v5Compat: true });
  const entries = new Map<string, Entry>();
  // The location the router shows: where a POP comes from (the browser's own location has already moved).
  let shown = inner.location;
  // Set while a blocked POP is being undone: that history update is swallowed, then this resolves.
  let undoing: (() => void) | null = null;

  const set = (entry: Entry, blocker: Blocker) => {
    entry.blocker = blocker;
    entry.update(blocker);
  };

  /** The active blocker when it blocks going from `shown` to `next`, else undefined. */
  function blocking(next: Location, historyAction: NavigationType): Entry | undefined {
    const entry = [...entries.values()].at(-1);
    if (!entry || entry.blocker.state === 'proceeding') return undefined;
    return entry.shouldBlock({ currentLocation: shown, nextLocation: next, historyAction }) ? entry : undefined;
  }

  function hold(entry: Entry, location: Location, go: () => void) {
    set(entry, {
      state: 'blocked',
      location,
      proceed: () => {
        set(entry, { state: 'proceeding', location, proceed: undefined, reset: undefined });
        go();
      },
      reset: () => set(entry, IDLE),
    });
  }

  const history: BrowserHistory = {
    get action() {
      return inner.action;
    },
    get location() {
      return inner.location;
    },
    createHref: (to) => inner.createHref(to),
    createURL: (to) => inner.createURL(to),
    encodeLocation: (to) => inner.encodeLocation(to),
    go: (delta) => inner.go(delta),
    push(to, state) {
      const entry = blocking(locationOf(shown, to, state), 'PUSH' as NavigationType);
      if (entry) hold(entry, locationOf(shown, to, state), () => inner.push(to, state));
      else inner.push(to, state);
    },
    replace(to, state) {
      const entry = blocking(locationOf(shown, to, state), 'REPLACE' as NavigationType);
      if (entry) hold(entry, locationOf(shown, to, state), () => inner.replace(to, state));
      else inner.replace(to, state);
    },
    listen(listener) {
      return inner.listen((update) => {
        if (undoing) {
          const resume = undoing;
          undoing = null;
          resume();
          return;
        }
        const entry = update.action === ('POP' as NavigationType) && update.delta != null ? blocking(update.location, update.action) : undefined;
        if (entry && update.delta != null) {
          const { delta } = update;
          const undone = new Promise<void>((resolve) => {
            undoing = resolve;
          });
          inner.go(-delta);
          hold(entry, update.location, () => void undone.then(() => inner.go(delta)));
          return;
        }
        shown = update.location;
        // A navigation went through: every blocker starts afresh (react-router's completeNavigation).
        for (const other of entries.values()) if (other.blocker.state !== 'unblocked') set(other, IDLE);
        listener(update);
      });
    },
  };

  return {
    history,
    register(key, entry) {
      entries.set(key, { ...entry, blocker: IDLE });
      return () => {
        entries.delete(key);
      };
    },
  };
}

const GuardContext = createContext<GuardedHistory | null>(null);

/** Makes `guard`'s blockers available to `useBlocker` below it (the router's history must be `guard.history`). */
export function NavigationGuardProvider({ guard, children }: { guard: GuardedHistory; children: ReactNode }) {
  return <GuardContext value={guard}>{children}</GuardContext>;
}

/**
 * react-router's `useBlocker` for the console's router: while `shouldBlock` says so, a navigation waits as
 * `{ state: 'blocked', location, proceed(), reset() }`; `proceed()` lets it go, `reset()` stays. `shouldBlock` is
 * read when a navigation starts, so it may depend on the latest render's values.
 */
export function useBlocker(shouldBlock: boolean | BlockerFunction): Blocker {
  const guard = useContext(GuardContext);
  if (!guard) throw new Error('useBlocker needs the console router (NavigationGuardProvider)');
  const key = useId();
  const [blocker, setBlocker] = useState<Blocker>(IDLE);
  const latest = useRef(shouldBlock);
  useLayoutEffect(() => {
    latest.current = shouldBlock;
  });
  useEffect(
    () =>
      guard.register(key, {
        shouldBlock: (args) => (typeof latest.current === 'function' ? latest.current(args) : latest.current),
        update: setBlocker,
      }),
    [guard, key],
  );
  return blocker;
}
