/**
 * Translations (issue 23), on Lingui's core (`@lingui/core`, 2.3 KB of gzip; docs/bundle.md says why it and not
 * i18next or Paraglide). Messages are ICU MessageFormat strings (plurals: `{count, plural, one {# kontakt} other
 * {# kontakter}}`) kept by key in `src/i18n/catalogs/<locale>/<area>.json`, compiled at build time
 * (vite-catalogs.ts), one file per language and area: a screen fetches only its areas in the language shown, and
 * a change of language fetches the areas already shown in the new one before switching.
 *
 * Keys are literal strings in the code (`t('contacts.title')`), so src/i18n/catalogs.test.ts can check that every
 * key used is in both catalogs and every catalog key is used. A key a catalog lacks shows as the key itself.
 */
import { i18n } from '@lingui/core';
import { importCatalog } from 'virtual:catalogs';
import { type Locale, intlLocale, preferredLocale, rememberLocale } from './locale';

export { i18n };

/**
 * The catalogs' areas: what a screen needs loaded before it renders. `common`: what every page may show, /connect
 * included; `shell`: the workspace's header, navigation and request budget, loaded with the workspace layout; `bulk`:
 * the contacts' selection bar and bulk tags dialog, loaded with them; `sentences`: what is shown when something goes
 * wrong (the error sentences of src/lib/error-sentence.ts, the throttling notice, a missing scope), loaded only when
 * shown, so the first screens do not carry them. `forms`: the shared create-or-edit drawer (UpsertDrawer), the
 * key-value editor, the catalog's shared fields and the delete confirmation, waited for by those components
 * (`useArea`); `catalog-import`: the products' CSV import dialog and its row checks, loaded with the dialog. The
 * contacts page's lazy parts bring their own: `contact-record` (a contact's drawer, the new and edit forms, the
 * erasure), `contacts-export` (the export menu and dialog), `contacts-import` (the import dialog). `overview`: the
 * workspace's home, loaded with its page; `people`: the header's search across workspaces, loaded with its dialog;
 * `jobs`: the jobs page, the header's job progress and the titles and reports of durable jobs, loaded with the page,
 * with the progress, and by the runner; `tools`: the shared pop-ups loaded when first opened (the header's key menu
 * and connected notice, a saved view's menu and naming dialog, the shared views' marks and their confirmation, the add-key dialog, a record drawer's loading and
 * not-found states, the `$filter` editor), each loading it with its own code; `lists`: the tables,
 * pagination, filters, tag fields and saved views of the list pages (contacts, products, collections, posts and the
 * composer, workspaces), and the catalog's counts, empty states and forms' missing title, loaded with those sections,
 * so the overview does not carry them (issue 38 point 3).
 * `activity`: a record's history and consent record, the Activity page and a job's undo in one request (our service's
 * activity log, docs/decisions.md section 11), loaded with each of them.
 */
export type Area =
  | 'common'
  | 'connect'
  | 'contacts'
  | 'posts'
  | 'products'
  | 'collections'
  | 'workspaces'
  | 'embed'
  | 'sentences'
  | 'shell'
  | 'bulk'
  | 'forms'
  | 'catalog-import'
  | 'contact-record'
  | 'contacts-export'
  | 'contacts-import'
  | 'overview'
  | 'people'
  | 'jobs'
  | 'tools'
  | 'lists'
  | 'activity';

const loaded = new Set<string>();
/** Each catalog's load by `<locale>/<area>`, kept so every caller (and React's `use`) waits on the same promise. */
const loading = new Map<string, Promise<void>>();
const areas = new Set<Area>();
const listeners = new Set<(locale: Locale) => void>();

function loadOne(locale: Locale, area: Area): Promise<void> {
  const key = `${locale}/${area}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = importCatalog(key).then((messages) => {
      i18n.load(locale, messages);
      loaded.add(key);
    });
    loading.set(key, promise);
    // A failed fetch (offline) is tried again by the next caller.
    promise.catch(() => loading.delete(key));
  }
  return promise;
}

async function load(locale: Locale, wanted: Iterable<Area>): Promise<void> {
  await Promise.all([...wanted].map((area) => loadOne(locale, area)));
}

/** The language shown (`en` before `activateLocale`). */
export function currentLocale(): Locale {
  return (i18n.locale as Locale | undefined) || 'en';
}

/**
 * Loads `area`'s catalog in the language shown (and in any language activated later). Await it before rendering a
 * screen that uses the area's keys (the sections' lazy loaders do).
 */
export function loadArea(area: Area): Promise<void> {
  areas.add(area);
  return i18n.locale ? loadOne(currentLocale(), area) : Promise.resolve();
}

const settled = new Map<string, Promise<void>>();

/**
 * `loadArea` that never rejects, for texts shown on a failure (the `sentences` area): resolves once the catalog is
 * loaded or could not be fetched (offline; its texts then show as their keys, and a change of language tries
 * again). The same promise for a language and area, so React's `use` can wait on it.
 */
export function loadAreaSettled(area: Area): Promise<void> {
  const key = `${currentLocale()}/${area}`;
  let promise = settled.get(key);
  if (!promise) {
    promise = loadArea(area).catch(() => undefined);
    settled.set(key, promise);
  }
  return promise;
}

/** True when `area`'s catalog is loaded in the language shown. */
export function areaLoaded(area: Area): boolean {
  return loaded.has(`${currentLocale()}/${area}`);
}

/**
 * Shows `locale`: loads the areas shown so far (and `needed`) in it, then switches every translated text, the
 * formats (Intl in the language and the browser's region) and `<html lang>`. `remember` keeps the choice on this device.
 */
export async function activateLocale(locale: Locale, options: { needed?: Area[]; remember?: boolean } = {}): Promise<void> {
  for (const area of options.needed ?? []) areas.add(area);
  await load(locale, areas);
  if (options.remember) rememberLocale(locale);
  i18n.activate(locale, [intlLocale(locale), locale]);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
}

/** Starts the console in the preferred language (the device's choice, else the browser's) with `needed` loaded. */
export function startLocale(needed: Area[]): Promise<void> {
  return activateLocale(preferredLocale(), { needed });
}

/** Calls `listener` after each change of language; returns the unsubscribe. */
export function onLocaleChange(listener: (locale: Locale) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The message of `id` in the language shown, with `values` put in (numbers in plurals formatted for the locale). */
export function t(id: string, values?: Record<string, unknown>): string {
  return i18n._(id, values);
}
