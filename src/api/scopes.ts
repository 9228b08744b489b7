/**
 * API key scopes (interface document, "Authentication" rule 2). `x:read-write` also grants `x:read-only`
 * (docs/decisions.md section 4).
 */
export const RESOURCES = ['feeds', 'products', 'contacts', 'posts'] as const;
export type Resource = (typeof RESOURCES)[number];
export type AccessLevel = 'read-only' | 'read-write';
export type Scope = `${Resource}:${AccessLevel}`;

/** All eight scopes, in the order of the interface document. */
export const SCOPES: readonly Scope[] = RESOURCES.flatMap((r) => [`${r}:read-only`, `${r}:read-write`] as Scope[]);

/** True when `scope` is one of the eight. */
export function isScope(scope: string): scope is Scope {
  return (SCOPES as readonly string[]).includes(scope);
}

/** True when the granted scopes satisfy `required` (a read-write scope grants the matching read-only one). */
export function grants(granted: readonly Scope[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [resource, level] = required.split(':') as [Resource, AccessLevel];
  return level === 'read-only' && granted.includes(`${resource}:read-write`);
}

/** `{ contacts: 'read-write', ... }`: one entry per resource the scopes touch, the higher level winning. */
export function permissionsOf(granted: readonly Scope[]): Partial<Record<Resource, AccessLevel>> {
  const out: Partial<Record<Resource, AccessLevel>> = {};
  for (const scope of granted) {
    const [resource, level] = scope.split(':') as [Resource, AccessLevel];
    if (out[resource] !== 'read-write') out[resource] = level;
  }
  return out;
}
