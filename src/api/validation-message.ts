/**
 * Turns zod issues into the one-line messages of docs/decisions.md section 3: `$limit must not be greater than 30`,
 * `property foo should not exist`, several joined by `; `. Used by the server for every 400 and by forms.
 */
import type { z } from 'zod/mini';

type Issue = z.core.$ZodIssue;

function pathText(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.map((part) => String(part)).join('.');
}

function describe(issue: Issue, root: string): string[] {
  const where = pathText(issue.path, root);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => `property ${issue.path.length ? `${where}.` : ''}${key} should not exist`);
    case 'invalid_type':
      if (issue.path.length > 0 && issue.message.endsWith('received undefined')) return [`${where} is required`];
      if (issue.expected === 'record' || issue.expected === 'object') return [`${where} must be an object`];
      return [`${where} must be ${issue.expected === 'array' ? 'an' : 'a'} ${issue.expected}`];
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return [`${where} must be at most ${max} characters long`];
      if (issue.origin === 'array' || issue.origin === 'set') return [`${where} must contain at most ${max} items`];
      return [`${where} must not be greater than ${max}`];
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return [min === '1' ? `${where} must not be empty` : `${where} must be at least ${min} characters long`];
      if (issue.origin === 'array' || issue.origin === 'set') return [`${where} must contain at least ${min} items`];
      return [`${where} must not be less than ${min}`];
    }
    case 'invalid_value':
      return [`${where} must be one of ${issue.values.map((v) => String(v)).join(', ')}`];
    case 'invalid_format':
      if (issue.format === 'email') return [`${where} must be a valid email address`];
      return [`${where} ${issue.message.startsWith('Invalid') ? `must be a valid ${issue.format}` : issue.message}`];
    case 'invalid_union':
      return [`${where} has an invalid shape`];
    default:
      return [`${where} ${issue.message}`];
  }
}

/**
 * One message for a failed parse: each issue as `<path> <predicate>`, joined by `; `.
 * `root` names the whole value when an issue has an empty path (`body`, `query`).
 */
export function formatIssues(issues: readonly Issue[], root = 'body'): string {
  return [...new Set(issues.flatMap((issue) => describe(issue, root)))].join('; ');
}
