// Unit tests see the console in English, every area loaded (vitest setupFiles).
import { activateLocale } from './i18n';

await activateLocale('en', { needed: ['common', 'connect', 'contacts', 'posts', 'products', 'collections', 'workspaces', 'embed', 'sentences', 'shell', 'bulk'] });
