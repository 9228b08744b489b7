/**
 * The products feature's step kind (issue 38 point 4): `upsert-product`, one product created or updated by its
 * `externalId` (`POST /products` as an upsert, docs/contract.md section 4), the step a products import sends per row
 * (import-products-dialog.tsx). Its handler goes in the job engine's table (src/lib/jobs/step-kinds.ts), registered
 * by src/app/kinds.ts. An upsert is safe to repeat, so a lost answer is simply sent again (with the step's
 * Idempotency-Key, docs/decisions.md section 9); it has no inverse a job could send, so it is never undone by one.
 */
import type { ProductUpsert } from '@/api/catalog';
import type { StepHandler } from '@/lib/jobs/step-kinds';

/** Creates or updates one product; `rows`: the file's 1-based data row, `label`: its externalId. */
export type UpsertProductStep = { kind: 'upsert-product'; body: ProductUpsert; rows?: number[]; label?: string };

export const upsertProductHandler: StepHandler<UpsertProductStep> = {
  kind: 'upsert-product',
  async send(step, { client, call }) {
    const answer = await client.upsertProduct(step.body, call);
    return answer.created ? { kind: 'created', id: answer.id } : { kind: 'updated', id: answer.id };
  },
  describe: (step) => ({ rows: (step.rows ?? []).join(' '), externalId: String(step.body.externalId ?? ''), title: String(step.body.title ?? '') }),
};

/** The products feature's handlers, for the engine's table (`registerStepHandlers`). */
export const productStepHandlers = [upsertProductHandler] as const;
