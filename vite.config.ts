import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { catalogs } from './vite-catalogs';

/** In `npm run dev`, `/embed/*` gets the embed page, as the server does in production. */
const embedRoutes: Plugin = {
  name: 'embed-routes',
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      if (request.url?.startsWith('/embed/')) request.url = '/embed.html';
      next();
    });
  },
};

/**
 * The libraries every console screen renders with (/connect, the contacts screen, the overview), as one chunk (issue 38
 * point 3, docs/bundle.md): React and its renderer, the router, TanStack Query, Mantine's provider, Box and styles API
 * and the light components every screen shows. Left to the bundler they were a dozen files (each compressed alone)
 * split by which lazy chunks reach each module. Nothing here is used by the embed page, which must not load it.
 */
const consoleFirst = [
  /node_modules[\\/](react|react-dom|scheduler|react-router|clsx|@mantine[\\/]store|@lingui[\\/]react|@tanstack[\\/](query-core|react-query))[\\/]/,
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/](Box|InlineStyles|MantineProvider|factory|styles-api|utils)[\\/]/,
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](ActionIcon|Alert|Button|CloseButton|Container|Group|Loader|Stack|Text|Title|Transition|UnstyledButton)[\\/]/,
  /node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/](use-color-scheme|use-did-update|use-id|use-isomorphic-effect|use-media-query|use-reduced-motion|utils[\\/]random-id)[\\/]/,
  /node_modules[\\/]@mantine[\\/]notifications[\\/]esm[\\/]notifications\.store/,  /src[\\/](app[\\/](app|router|sections|pages)|components[\\/](route-error|query-state|lazy-error-message|language-chooser)|lib[\\/](connections|navigation-guard|query-client|first-interaction|data-changed|throttle|local-state|backoff|checked-authorization)|i18n[\\/]react)\.tsx?$/,
];
/** What those patterns catch that only lazy code uses (mutations, parallel queries, the keyboard handlers of menus). */
const consoleLater = /(useMutation|mutationObserver|useQueries|queriesObserver|create-scoped-keydown-handler|find-element-in-shadow-dom)\./;

/**
 * What every workspace screen loads before its page (the layout, the typed client with its request budget, the section
 * gate), as one chunk; /connect loads it only once a key is checked.
 */
const workspaceFirst =
  /src[\\/](api[\\/](authorization|catalog|client|contacts|extensions|filter[\\/]fields|rate-budget|scopes|workspaces)|app[\\/](color-scheme-toggle|scope-gate)|components[\\/](after-interaction|budget-meter|deferred-tooltip|icons|throttle-notice)|lib[\\/](workspace-api|budget-memory|budgeted-client|extension-query|extensions|jobs[\\/]job-names|jobs[\\/]job-watch|list-memory|permissions|use-rate-budget))\.(tsx?|module\.css)$/;
/**
 * What a list screen (contacts, products, collections, posts...) renders first besides its page: the table (TanStack
 * Table), pagination, the search and filter sheet, the saved views' state, as one chunk. Not Mantine's NativeSelect
 * nor its debounced callback: the header's tools and ScrollArea use them on every screen, and would load the table with
 * them.
 */
const listFirst = [
  /node_modules[\\/](@tanstack[\\/](table-core|react-table|react-store|store)|use-sync-external-store)[\\/]/,
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Skeleton[\\/]/,
  /src[\\/](components[\\/](data-table|pagination-bar|filter-sheet|debounced-input)|lib[\\/](record-route|list-view|list-search|saved-view-store|resource-queries))\.(tsx?|module\.css)$/,
];
/**
 * What the embed page and the workspace screens share and /connect does not load: zod (not its locales, which load on
 * demand) and the contract's transport and posts (endpoint 14), as one chunk. Left to the bundler zod alone was split
 * three ways by which screens reach each module.
 */
const contractFirst = [
  /node_modules[\\/]zod[\\/](?!v4[\\/]locales)/,
  /src[\\/]api[\\/](transport|posts|api-error-response|common|filter[\\/](ast|order-by|print)|query-string|validation-message|public-posts|url)\.ts$/,
  /src[\\/]i18n[\\/]format\.ts$/,
];

/**
 * Vite config for the dashboard: two entries, the console (index.html) and the public embed page (embed.html),
 * so the embed ships no admin code. `npm run dev` proxies `/api` and `/app-config.json` to the service
 * (docs/decisions.md section 0).
 */
export default defineConfig({
  plugins: [react(), embedRoutes, catalogs()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080',
      '/app-config.json': process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080',
    },
  },
  // Module workers (the contacts import's reader, planner and look-ups, issue 20), so a worker can load a chunk when it
  // needs it; the catalogs' plugin too, so the planner words a refused row in the language shown.
  worker: { format: 'es', plugins: () => [catalogs({ emit: false })] },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./embed.html', import.meta.url)),
      },
      // Issue 38 point 3 (docs/bundle.md): zod is one chunk of its own, which /connect does not load; left to the bundler
      // it was split by which screens reach each module, into several smaller files that each compress alone. Only
      // zod's modules (not its locales, which load on demand).
      output: {
        codeSplitting: {
          groups: [
            { name: 'console', test: (id) => consoleFirst.some((pattern) => pattern.test(id)) && !consoleLater.test(id), includeDependenciesRecursively: false },
            { name: 'workspace', test: (id) => workspaceFirst.test(id), includeDependenciesRecursively: false },
            { name: 'inputs', test: /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Input|InputBase|TextInput|Badge)[\\/]/, includeDependenciesRecursively: false },
            { name: 'list', test: (id) => listFirst.some((pattern) => pattern.test(id)), includeDependenciesRecursively: false },
            { name: 'contract', test: (id) => contractFirst.some((pattern) => pattern.test(id)), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
