/**
 * Permission checks for the console (issue 4), from the `permissions` map of `GET /authorization`
 * (`{ contacts: 'read-write', ... }`). A read-write permission grants read-only (docs/decisions.md section 4).
 */
import { type Scope, grants } from '@/api/scopes';

/** The scopes a permissions map stands for. */
export function scopesOf(permissions: Record<string, string>): Scope[] {
  return Object.entries(permissions).map(([resource, level]) => `${resource}:${level}` as Scope);
}

/** True when `permissions` allow `scope`. */
export function allows(permissions: Record<string, string> | undefined, scope: Scope): boolean {
  return permissions ? grants(scopesOf(permissions), scope) : false;
}
