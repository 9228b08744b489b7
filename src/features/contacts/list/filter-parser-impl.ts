/**
 * What filter-parser.ts loads on demand: the contacts `$filter` text parsed (src/api/filter/parse.ts) and checked
 * against the contact fields (src/api/filter/check.ts, fields.ts; interface document, "Filtering").
 */
import type { FilterNode } from '@/api/filter/ast';
import { FilterFieldError, checkFilter } from '@/api/filter/check';
import { contactFilterFields } from '@/api/filter/fields';
import { FilterSyntaxError, parseFilter } from '@/api/filter/parse';

/** The AST of a `$filter` text; throws FilterSyntaxError on text the parser refuses. */
export function parseContactFilter(text: string): FilterNode {
  return parseFilter(text);
}

/** True when the parser and the contact fields' checks accept the text; false on a syntax or field error. */
export function isValidContactFilter(text: string): boolean {
  try {
    checkFilter(parseFilter(text), contactFilterFields);
    return true;
  } catch (error) {
    if (error instanceof FilterSyntaxError || error instanceof FilterFieldError) return false;
    throw error;
  }
}
