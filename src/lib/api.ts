/**
 * The old name of src/lib/workspace-api.tsx, kept for one importer only: src/features/contacts/tag-facet.tsx, which
 * is being changed elsewhere and is left untouched here (issue 38 point 4). When that change lands, its import moves
 * to `@/lib/workspace-api` and this file goes.
 */
export { useWorkspaceApi } from './workspace-api';
