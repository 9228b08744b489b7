/**
 * Permission checks for the console (issue 4), from the `permissions` map of `GET /authorization`
 * (`{ contacts: 'read-write', ... }`). A read-write permission grants read-only (decisions.md section 4).
 */
import { type Scope, grants } from '@/api/scopes';

/** The scopes a permissions map stands for. */
export function scopesOf(permissions: Record<string, string>): Scope[] {
  return Object.entries(permissions).map(([resource, level]) => `${resource}:${level}` as Scope);
}

/** The resources of a permissions map (decisions.md section 4), in the order the console shows them. */
export const PERMISSION_RESOURCES = ['contacts', 'products', 'posts', 'feeds'] as const;

/** What a key allows, in words: `contacts: read-write, products: read-only, posts: none, feeds: none`. */
export function permissionSummary(permissions: Record<string, string>): string {
  return PERMISSION_RESOURCES.map((resource) => `${resource}: ${permissions[resource] ?? 'none'}`).join(', ');
}

/** True when `permissions` allow `scope`. */
export function allows(permissions: Record<string, string> | undefined, scope: Scope): boolean {
  return permissions ? grants(scopesOf(permissions), scope) : false;
}
