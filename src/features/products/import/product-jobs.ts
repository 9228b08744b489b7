/**
 * The products feature's job kind (issue 38 point 4): `products-import`, the import of a file of products
 * (import-products-dialog.tsx), one `upsert-product` step per row (product-steps.ts). Its spec goes in the job
 * engine's table (src/lib/jobs/job-kinds.ts), registered by src/app/kinds.ts; its name is stored on each job in
 * IndexedDB, so it is never renamed. Logged as `console/products-import` (docs/decisions.md section 11); titled by
 * its file's name (`meta.fileName`); it changes the products list (`['ws', workspaceId, 'products']`). An upsert has
 * no inverse a job could send, so no job undoes it; where the service keeps an activity log, the Jobs page undoes it
 * in one request. Texts: the `jobs` catalog.
 */
import type { JobKindSpec } from '@/lib/jobs/job-kinds';
import { importTitle } from '@/lib/jobs/job-title';

/** The name of this feature's job kind, for its job spec (`JobSpec.kind`): a misspelt kind fails to compile. */
export type ProductJobKind = 'products-import';

/** The import of a file of products: "Import {fileName}". */
export const productsImportKind: JobKindSpec & { readonly kind: ProductJobKind } = {
  kind: 'products-import',
  source: 'console/products-import',
  changes: 'products',
  label: 'jobs.kindProductsImport',
  title: importTitle,
  undoable: false,
};

/** The products feature's job kinds, for the engine's table (`registerJobKinds`). */
export const productJobKinds = [productsImportKind] as const;
