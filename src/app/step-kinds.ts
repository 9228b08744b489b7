/**
 * Registers every feature's step kinds in the job engine's table (issue 38 point 4; src/lib/jobs/step-kinds.ts):
 * the app composes the features, so the runner of any screen knows every kind a stored job may hold (a job resumes
 * on whatever page the console opens) while no feature imports another. Loaded on demand with the runner, the jobs
 * page's reports and undo (workspace-layout.tsx names it with `provideStepHandlers`), never with a first screen. A
 * new kind: its feature's handler, added here.
 */
import { registerStepHandlers } from '@/lib/jobs/step-kinds';
import { contactStepHandlers } from '@/features/contacts/contact-steps';
import { productStepHandlers } from '@/features/products/import/product-steps';

registerStepHandlers(...contactStepHandlers, ...productStepHandlers);
