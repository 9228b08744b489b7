import { readFile } from 'node:fs/promises';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const QUERY = '?catalog';
const PREFIX = '\0catalog:';
// The compiled module's id ends in `.js`, not `.json`, so Vite's JSON plugin leaves it alone.
const SUFFIX = '.catalog.js';

/**
 * Message catalogs (issue 23): `import.meta.glob('./catalogs/*\/*.json', { query: '?catalog' })` in src/i18n/i18n.ts
 * gets each `src/i18n/catalogs/<locale>/<area>.json` (ICU MessageFormat strings by key) as a module whose default
 * export is the catalog compiled by Lingui's `compileMessage`, the form `@lingui/core` reads without its
 * message parser (so the parser never ships). Each catalog is its own chunk, fetched only when its language and
 * area are shown. A message that is not valid ICU fails the build, naming the catalog and the key.
 */
export function catalogs(): Plugin {
  return {
    name: 'i18n-catalogs',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(`.json${QUERY}`)) return null;
      const resolved = await this.resolve(source.slice(0, -QUERY.length), importer, { skipSelf: true });
      return resolved ? PREFIX + resolved.id.replace(/\.json$/, SUFFIX) : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length, -SUFFIX.length) + '.json';
      this.addWatchFile(file);
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
    },
  };
}
