/**
 * Turns a list endpoint's parsed query (`$offset`, `$limit`, `$filter`, `$orderBy`) into checked values for
 * the queries, with the 400 messages of docs/decisions.md section 3 (`$filter: unexpected token 'eqq' at position 5`).
 */
import type { ListParams, ListQuery } from '../../src/api/common';
import { FilterFieldError, OrderByFieldError, checkFilter, checkOrderBy } from '../../src/api/filter/check';
import type { FieldTable } from '../../src/api/filter/fields';
import { type OrderByItem, OrderBySyntaxError, parseOrderBy } from '../../src/api/filter/order-by';
import { FilterSyntaxError, parseFilter } from '../../src/api/filter/parse';
import { badRequest } from '../errors';

/**
 * Checked list parameters. `sortable` lists the `$orderBy` fields; `defaultOrder` applies without `$orderBy`.
 * Throws HttpError 400 for a bad `$filter` or `$orderBy`. The result is shared by every request with the same
 * checked query object: callers must not change it.
 */
export function listParams(query: ListQuery, fields: FieldTable, sortable: readonly string[], defaultOrder: OrderByItem[]): Required<Pick<ListParams, 'offset' | 'limit' | 'orderBy'>> & ListParams {
  // The same checked query object (app.ts keeps them) gives the same params object: parsed and checked once.
  let known = checkedParams.get(fields);
  if (!known) checkedParams.set(fields, (known = new WeakMap()));
  let params = known.get(query);
  if (!params) known.set(query, (params = checkListParams(query, fields, sortable, defaultOrder)));
  return params;
}

/** Params already checked, by field table and query object (which app.ts's validator reuses for a repeated query). */
const checkedParams = new WeakMap<FieldTable, WeakMap<ListQuery, Required<Pick<ListParams, 'offset' | 'limit' | 'orderBy'>> & ListParams>>();

function checkListParams(query: ListQuery, fields: FieldTable, sortable: readonly string[], defaultOrder: OrderByItem[]): Required<Pick<ListParams, 'offset' | 'limit' | 'orderBy'>> & ListParams {
  const params: Required<Pick<ListParams, 'offset' | 'limit' | 'orderBy'>> & ListParams = { orderBy: defaultOrder, offset: query.$offset, limit: query.$limit };
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
