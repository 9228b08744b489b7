/**
 * zod's English issue messages (`zod/v4/locales/en.js`), configured when this module is imported: the same messages
 * as the full `zod` build, which src/api/validation-message.ts words its one-line messages from (docs/decisions.md
 * section 3). `zod/mini` loads no locale by itself. The server imports this at start (server/app.ts); the console
 * loads it on demand (about 1 KB of gzip kept off every first screen, docs/bundle.md): see load-zod-messages.ts.
 * Modules that word issues in the browser (forms, imports, bulk tags) import it statically, so they never word an
 * issue without it.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

/** The locale configured by this module. */
export const ZOD_MESSAGES_LOCALE = 'en';
