/**
 * No text slips through (issue 23 point 4): both catalogs of each area hold the same keys, every key is a valid
 * ICU message with the same placeholders in both languages, every key the code uses (a literal `t('area.key')`
 * or `'area.key'` string in src/) is in the catalogs, and no catalog holds a key the code does not use; an English
 * message counting one thing says so in the singular ("1 row", not "1 rows").
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { t } from './i18n';

const src = new URL('..', import.meta.url).pathname;
const catalogDir = new URL('./catalogs/', import.meta.url).pathname;
const locales = readdirSync(catalogDir);
const areas = readdirSync(join(catalogDir, 'en')).map((file) => file.replace(/\.json$/, ''));
const catalog = (locale: string, area: string): Record<string, string> => JSON.parse(readFileSync(join(catalogDir, locale, `${area}.json`), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'catalogs' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
// src/api is framework-free and shows no text (its `posts.claps` is a filter field, not a key).
const code = sources(src).filter((file) => !relative(src, file).startsWith('api/')).map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }));
const areaPattern = areas.join('|');
/** A file name such as `contacts.csv` (in an example or a comment) is not a key. */
const FILE_NAME = /\.(csv|tsv|json|xlsx?|txt)$/;
/** Every quoted `area.key` literal in the code. */
const used = new Map<string, string>();
for (const { file, text } of code) {
  for (const match of text.matchAll(new RegExp(`['"\`]((?:${areaPattern})\\.[A-Za-z][\\w.]*)['"\`]`, 'g'))) if (!FILE_NAME.test(match[1]!)) used.set(match[1]!, file);
}

/** The placeholder names of an ICU message (`{count, plural, ...}` -> count), from Lingui's compiled form. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  const collect = (compiled: unknown): void => {
    if (!Array.isArray(compiled)) return;
    for (const part of compiled) {
      if (!Array.isArray(part)) continue;
      names.add(String(part[0]));
      if (part[2] && typeof part[2] === 'object') for (const branch of Object.values(part[2] as object)) collect(branch);
    }
  };
  collect(compileMessage(message));
  names.delete('#');
  return [...names].sort();
}

describe('catalogs', () => {
  it('has English and Norwegian', () => expect(locales.sort()).toEqual(['en', 'nb']));

  for (const area of areas) {
    it(`${area}: both languages hold the same keys, each under the area's prefix`, () => {
      const en = Object.keys(catalog('en', area)).sort();
      const nb = Object.keys(catalog('nb', area)).sort();
      expect(nb).toEqual(en);
      expect(en.filter((key) => !key.startsWith(`${area}.`))).toEqual([]);
    });

    it(`${area}: every message is ICU with the same placeholders in both languages`, () => {
      const en = catalog('en', area);
      const nb = catalog('nb', area);
      const differing = Object.keys(en).filter((key) => nb[key] !== undefined && placeholders(en[key]!).join() !== placeholders(nb[key]!).join());
      expect(differing).toEqual([]);
    });
  }

  it('English: a message counting one thing names it in the singular ("Check 1 row", not "Check 1 rows")', () => {
    // The placeholders that count things; any other (a name, a duration, a limit of characters) is given 2.
    const COUNTS = new Set(['count', 'rows', 'columns', 'total', 'lookups', 'tagged', 'counted', 'done', 'settled', 'shown', 'pages', 'hours', 'minutes', 'seconds', 'queued', 'parts', 'perMinute', 'limit', 'now', 'was', 'contacts', 'tags']);
    const plural = areas.flatMap((area) =>
      Object.keys(catalog('en', area)).flatMap((key) => {
        const names = placeholders(catalog('en', area)[key]!);
        if (!names.some((name) => COUNTS.has(name))) return [];
        const text = t(key, Object.fromEntries(names.map((name) => [name, COUNTS.has(name) ? 1 : 2])));
        return /\b1 [a-z-]*[a-z]s\b/.test(text) ? [`${key}: ${text}`] : [];
      }),
    );
    expect(plural).toEqual([]);
  });

  it('holds every key the code uses', () => {
    const keys = new Set(areas.flatMap((area) => Object.keys(catalog('en', area))));
    const missing = [...used].filter(([key]) => !keys.has(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('holds no key the code does not use', () => {
    const unused = areas.flatMap((area) => Object.keys(catalog('en', area))).filter((key) => !used.has(key));
    expect(unused).toEqual([]);
  });
});
