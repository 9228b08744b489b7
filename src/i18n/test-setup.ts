// Unit tests see the console in English, every area loaded (vitest setupFiles).
import { activateLocale } from './i18n';
// The server's zod messages (the console loads them on demand: src/api/load-zod-messages.ts).
import '@/api/zod-messages';

await activateLocale('en', {
  needed: ['common', 'connect', 'contacts', 'posts', 'products', 'collections', 'workspaces', 'embed', 'sentences', 'shell', 'bulk', 'forms', 'catalog-import', 'contact-record', 'contacts-export', 'contacts-import', 'overview', 'people', 'jobs', 'tools', 'lists'],
});
