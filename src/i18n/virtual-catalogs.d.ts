/** vite-catalogs.ts: a catalog (`<locale>/<area>`, as `en/contacts`) compiled for `@lingui/core`, fetched on demand. */
declare module 'virtual:catalogs' {
  export function importCatalog(key: string): Promise<import('@lingui/core').Messages>;
}
