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

/**
 * The scopes of `value`, comma-separated (spaces around each ignored, repeats dropped) or `all` for the eight, as the
 * operator command line takes them (`--scope`, `--key-scope`; docs/deploy.md). Throws an `Error` naming the unknown
 * ones, or `(none)` when the list is empty.
 */
export function parseScopeList(value: string): Scope[] {
  if (value === 'all') return [...SCOPES];
  const scopes = value.split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length || !scopes.length) throw new Error(`unknown scope ${unknown.join(', ') || '(none)'}; scopes are ${SCOPES.join(', ')} or all`);
  return [...new Set(scopes)] as Scope[];
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
