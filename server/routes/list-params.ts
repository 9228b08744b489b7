/**
 * Turns a list endpoint's parsed query (`$offset`, `$limit`, `$filter`, `$orderBy`) into checked values for
 * the queries, with the 400 messages of decisions.md section 3 (`$filter: unexpected token 'eqq' at position 5`).
 */
import type { ListQuery } from '../../src/api/common';
import type { FilterNode } from '../../src/api/filter/ast';
import { FilterFieldError, OrderByFieldError, checkFilter, checkOrderBy } from '../../src/api/filter/check';
import type { FieldTable } from '../../src/api/filter/fields';
import { type OrderByItem, OrderBySyntaxError, parseOrderBy } from '../../src/api/filter/order-by';
import { FilterSyntaxError, parseFilter } from '../../src/api/filter/parse';
import { badRequest } from '../errors';

export type ListParams = { filter?: FilterNode; orderBy: OrderByItem[]; offset: number; limit: number };

/**
 * Checked list parameters. `sortable` lists the `$orderBy` fields; `defaultOrder` applies without `$orderBy`.
 * Throws HttpError 400 for a bad `$filter` or `$orderBy`.
 */
export function listParams(query: ListQuery, fields: FieldTable, sortable: readonly string[], defaultOrder: OrderByItem[]): ListParams {
  const params: ListParams = { orderBy: defaultOrder, offset: query.$offset, limit: query.$limit };
  if (query.$filter !== undefined) {
    try {
      const filter = parseFilter(query.$filter);
      checkFilter(filter, fields);
      params.filter = filter;
    } catch (error) {
      if (error instanceof FilterSyntaxError || error instanceof FilterFieldError) throw badRequest(`$filter: ${error.message}`);
      throw error;
    }
  }
  if (query.$orderBy !== undefined) {
    try {
      const orderBy = parseOrderBy(query.$orderBy);
      checkOrderBy(orderBy, sortable);
      params.orderBy = orderBy;
    } catch (error) {
      if (error instanceof OrderBySyntaxError || error instanceof OrderByFieldError) throw badRequest(error.message.startsWith('$orderBy') ? error.message : `$orderBy: ${error.message}`);
      throw error;
    }
  }
  return params;
}
