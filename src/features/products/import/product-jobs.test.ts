/**
 * The products feature's job kind (product-jobs.ts) as the job engine reads it from its table
 * (src/lib/jobs/job-kinds.ts, issue 38 point 4): its title from its file's name, its source (what the activity log of
 * imports already run holds, docs/decisions.md section 11), its list, and no undo by a job.
 */
import { describe, expect, it } from 'vitest';
import { jobKind, registerJobKinds } from '@/lib/jobs/job-kinds';
import { jobTitle, titleFromMeta } from '@/lib/jobs/job-title';
import { productJobKinds } from './product-jobs';

registerJobKinds(...productJobKinds);

describe('the products import job kind', () => {
  it('is titled by its file, logged as console/products-import, changes the products list and is not undone by a job', () => {
    const titleMessage = titleFromMeta('products-import', { fileName: 'products.csv' }, 2)!;
    expect(jobTitle({ title: 'x', titleMessage })).toBe('Import products.csv');
    expect(titleFromMeta('products-import', {}, 2)).toBeNull();
    expect(jobKind('products-import')).toMatchObject({ source: 'console/products-import', changes: 'products', undoable: false });
  });
});
