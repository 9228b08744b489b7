/**
 * Registers every feature's step kinds and job kinds in the job engine's tables (issue 38 point 4;
 * src/lib/jobs/step-kinds.ts, src/lib/jobs/job-kinds.ts): the app composes the features, so the runner of any screen
 * knows every kind a stored job may hold (a job resumes on whatever page the console opens), and the Jobs page every
 * kind's name and undo, while no feature imports another. Loaded on demand with the runner, the jobs page's entries,
 * reports and undo (workspace-layout.tsx names it with `provideKinds`), never with a first screen. A new kind: its
 * feature's handler or spec, added here.
 */
import { registerJobKinds } from '@/lib/jobs/job-kinds';
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactJobKinds } from '@/features/contacts/contact-jobs';
import { contactStepHandlers } from '@/features/contacts/contact-steps';
import { productJobKinds } from '@/features/products/import/product-jobs';
import { productStepHandlers } from '@/features/products/import/product-steps';

registerStepHandlers(...contactStepHandlers, ...productStepHandlers);
registerJobKinds(...contactJobKinds, ...productJobKinds);
