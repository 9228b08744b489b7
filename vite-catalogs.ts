import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const VIRTUAL = 'virtual:catalogs';
const RESOLVED_VIRTUAL = '\0virtual:catalogs';
const QUERY = '?catalog';
const PREFIX = '\0catalog:';
// The compiled module's id ends in `.js`, not `.json`, so Vite's JSON plugin leaves it alone.
const SUFFIX = '.catalog.js';
const CATALOGS_DIR = fileURLToPath(new URL('./src/i18n/catalogs/', import.meta.url));

/** A catalog file (`src/i18n/catalogs/<locale>/<area>.json`) compiled to a module whose default export Lingui reads. */
async function compileCatalog(file: string): Promise<string> {
  const messages = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
  const compiled: Record<string, unknown> = {};
  for (const [key, message] of Object.entries(messages)) {
    try {
      compiled[key] = compileMessage(message);
    } catch (error) {
      throw new Error(`${file}: the message ${key} is not valid ICU MessageFormat: ${(error as Error).message}`);
    }
  }
  return `export default JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`;
}

/** Every catalog's `<locale>/<area>` key, sorted. */
async function catalogKeys(): Promise<string[]> {
  const keys: string[] = [];
  for (const locale of (await readdir(CATALOGS_DIR, { withFileTypes: true })).filter((entry) => entry.isDirectory())) {
    for (const file of await readdir(CATALOGS_DIR + locale.name)) {
      if (file.endsWith('.json')) keys.push(`${locale.name}/${file.slice(0, -'.json'.length)}`);
    }
  }
  return keys.sort();
}

/**
 * Message catalogs (issue 23), compiled by Lingui's `compileMessage` to the form `@lingui/core` reads without its
 * message parser (so the parser never ships). src/i18n/i18n.ts imports `importCatalog(key)` from `virtual:catalogs`,
 * which resolves `<locale>/<area>` to `src/i18n/catalogs/<locale>/<area>.json` compiled, fetched only when its
 * language and area are shown. A message that is not valid ICU fails the build, naming the catalog and the key.
 *
 * - In the build the catalogs are files of their own, `assets/catalogs/<version>/<locale>/<area>.js` (`version`: a
 *   hash of every compiled catalog), and `importCatalog` builds that address: one line in the first screens' code in
 *   place of a map of 44 content-hashed chunk names (0.7 KB of gzip on every screen, docs/bundle.md). The folder's
 *   name changes with any catalog, so the files stay cacheable as immutable, as every other file under assets/.
 *   `emit: false` (the workers' build) only builds the address; the page's build writes the files.
 * - In `npm run dev` and the tests each catalog is a module (`<file>.json?catalog`), imported through a map.
 */
export function catalogs({ emit = true }: { emit?: boolean } = {}): Plugin {
  let build = false;
  /** This build's catalogs compiled once (`<locale>/<area>` to module source) and their version; reset per build. */
  let compiled: Promise<{ version: string; sources: Map<string, string> }> | undefined;
  const compileAll = () =>
    (compiled ??= catalogKeys().then(async (keys) => {
      const sources = new Map<string, string>();
      const hash = createHash('sha256');
      for (const key of keys) {
        const source = await compileCatalog(`${CATALOGS_DIR}${key}.json`);
        sources.set(key, source);
        hash.update(`${key}\0${source}\0`);
      }
      return { version: hash.digest('hex').slice(0, 10), sources };
    }));

  return {
    name: 'i18n-catalogs',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    buildStart() {
      compiled = undefined;
    },
    async resolveId(source, importer) {
      if (source === VIRTUAL) return RESOLVED_VIRTUAL;
      if (!source.endsWith(`.json${QUERY}`)) return null;
      const resolved = await this.resolve(source.slice(0, -QUERY.length), importer, { skipSelf: true });
      return resolved ? PREFIX + resolved.id.replace(/\.json$/, SUFFIX) : null;
    },
    async load(id) {
      if (id === RESOLVED_VIRTUAL) {
        if (build) {
          const { version, sources } = await compileAll();
          for (const key of sources.keys()) this.addWatchFile(`${CATALOGS_DIR}${key}.json`);
          // A variable, not `import.meta.url` inside `new URL(...)`, which Vite would read as an asset's address.
          return [
            'const here = import.meta.url;',
            `export const importCatalog = (key) => import(/* @vite-ignore */ new URL(\`catalogs/${version}/\${key}.js\`, here).href).then((module) => module.default);`,
          ].join('\n');
        }
        const keys = await catalogKeys();
        this.addWatchFile(CATALOGS_DIR);
        const entries = keys.map((key) => `${JSON.stringify(key)}: () => import(${JSON.stringify(`${CATALOGS_DIR}${key}.json${QUERY}`)})`);
        return [
          `const catalogs = {${entries.join(', ')}};`,
          'export const importCatalog = (key) => catalogs[key] ? catalogs[key]().then((module) => module.default) : Promise.reject(new Error(`No catalog ${key}`));',
        ].join('\n');
      }
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length, -SUFFIX.length) + '.json';
      this.addWatchFile(file);
      return compileCatalog(file);
    },
    async generateBundle() {
      if (!emit) return;
      const { version, sources } = await compileAll();
      for (const [key, source] of sources) this.emitFile({ type: 'asset', fileName: `assets/catalogs/${version}/${key}.js`, source });
    },
  };
}
