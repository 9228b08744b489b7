// The catalogs' build (vite-catalogs.ts): every catalog written under one versioned folder, and the address the
// console's code builds pointing at it (issue 38 point 3, docs/bundle.md).
import { readFileSync, readdirSync } from 'node:fs';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { catalogs } from '../../vite-catalogs';

const DIR = new URL('./catalogs/', import.meta.url);
const KEYS = readdirSync(DIR).flatMap((locale) => readdirSync(new URL(`${locale}/`, DIR)).map((file) => `${locale}/${file.replace(/\.json$/, '')}`));

type Emitted = { fileName: string; source: string };

/** Runs the plugin's hooks as Vite would for `command`; returns the virtual module's code and the files emitted. */
async function run(plugin: Plugin, command: 'build' | 'serve') {
  const call = (hook: unknown, self: unknown, ...args: unknown[]) => (hook as (...a: unknown[]) => unknown).call(self, ...args);
  call(plugin.configResolved, {}, { command });
  const emitted: Emitted[] = [];
  const context = { addWatchFile: () => undefined, emitFile: (file: Emitted) => emitted.push(file) };
  const id = await call(plugin.resolveId, context, 'virtual:catalogs', undefined);
  const code = (await call(plugin.load, context, id)) as string;
  if (command === 'build') await call(plugin.generateBundle, context);
  return { code, emitted };
}

describe('the catalogs in the build', () => {
  it('writes every catalog, compiled, under one versioned folder, where the console looks for it', async () => {
    const { code, emitted } = await run(catalogs(), 'build');
    const version = code.match(/catalogs\/([0-9a-f]{10})\/\$\{key\}\.js/)?.[1];
    expect(version, code).toBeDefined();
    expect(emitted.map((file) => file.fileName).sort()).toEqual(KEYS.map((key) => `assets/catalogs/${version}/${key}.js`).sort());
    for (const key of ['en/common', 'nb/contacts']) {
      const file = emitted.find((each) => each.fileName.endsWith(`/${key}.js`))!;
      const compiled = JSON.parse(JSON.parse(file.source.replace(/^export default JSON\.parse\((.*)\);$/s, '$1')) as string) as Record<string, unknown>;
      const messages = JSON.parse(readFileSync(new URL(`${key}.json`, DIR), 'utf8')) as Record<string, string>;
      expect(compiled).toEqual(Object.fromEntries(Object.entries(messages).map(([id, message]) => [id, compileMessage(message)])));
    }
  });

  it("builds the workers' address to the same folder without writing the files again", async () => {
    const page = await run(catalogs(), 'build');
    const worker = await run(catalogs({ emit: false }), 'build');
    expect(worker.code).toBe(page.code);
    expect(worker.emitted).toEqual([]);
  });

  it('imports each catalog as a module in the dev server and the tests', async () => {
    const { code, emitted } = await run(catalogs(), 'serve');
    for (const key of KEYS) expect(code).toContain(`"${key}": () => import(`);
    expect(code).not.toContain('assets/catalogs');
    expect(emitted).toEqual([]);
  });
});
