import { describe, expect, it } from 'vitest';
import { compare, isFieldName, type FilterNode } from './ast';
import {
  FilterFieldError,
  OrderByFieldError,
  checkFilter,
  checkOrderBy,
  isIsoDate,
  parseAndCheckFilter,
  parseAndCheckOrderBy,
} from './check';
import {
  collectionFilterFields,
  collectionSortFields,
  contactFilterFields,
  contactSortFields,
  postFilterFields,
  postSortFields,
  productFilterFields,
  productSortFields,
  workspaceFilterFields,
  workspaceSortFields,
  type FieldTable,
} from './fields';
import { OrderBySyntaxError } from './order-by';
import { FilterSyntaxError, parseFilter } from './parse';

const contactFields = 'id, name, email, phone, state, source, systemSource, address, city, postalCode, region, tags, created, updated';

describe('checkFilter accepts', () => {
  it.each<{ title: string; fields: FieldTable; text: string }>([
    { title: 'eq on a string field', fields: contactFilterFields, text: "name eq 'x'" },
    { title: 'like on a string field', fields: contactFilterFields, text: "name like 'an%'" },
    { title: 'gt on a string field', fields: contactFilterFields, text: "name gt 'm'" },
    { title: 'between on a string field', fields: contactFilterFields, text: "name between 'a' and 'm'" },
    { title: 'in on a string field', fields: contactFilterFields, text: "state in ('active', 'new')" },
    { title: 'eq null and ne null on a string field', fields: contactFilterFields, text: 'phone eq null or email ne null' },
    { title: 'gt on a number field', fields: productFilterFields, text: 'price gt 10.5' },
    { title: 'between on a number field', fields: productFilterFields, text: 'price between 1 and 5' },
    { title: 'in on a number field', fields: productFilterFields, text: 'originalPrice in (1, 2)' },
    { title: 'eq null on a number field', fields: productFilterFields, text: 'originalPrice eq null' },
    { title: 'the ends of the decimal range', fields: productFilterFields, text: 'price between 0 and 1e12 and originalPrice ge 0.000001' },
    { title: 'the ends of the integer range', fields: postFilterFields, text: 'claps between -2147483648 and 2147483647' },
    { title: 'the ends of the date range, with offsets', fields: contactFilterFields, text: "created ge '1970-01-01T01:00+01:00' and updated le '9999-12-31T23:59:59.999Z' and created lt '9999-12-31'" },
    { title: 'eq and ne on a boolean field', fields: productFilterFields, text: 'isForSale eq true or isForSale ne false' },
    { title: 'in and eq null on a boolean field', fields: productFilterFields, text: 'isForSale in (true) or isForSale eq null' },
    { title: 'eq null (empty) and ne null on a string-array field', fields: contactFilterFields, text: 'tags eq null or tags ne null' },
    { title: 'eq, ne and in on a string-array field', fields: productFilterFields, text: "tags eq 'vip' and tags ne 'old' and collectionIds in ('c1', 'c2')" },
    { title: 'a date', fields: contactFilterFields, text: "created gt '2024-01-01'" },
    { title: 'a UTC date-time between a date', fields: contactFilterFields, text: "created between '2024-01-01' and '2024-12-31T23:59:59Z'" },
    { title: 'a date-time with an offset', fields: contactFilterFields, text: "updated eq '2024-01-01T10:00+02:00'" },
    { title: 'a date-time with nanoseconds', fields: contactFilterFields, text: "updated lt '2024-01-01T10:00:00.123456789Z'" },
    { title: 'a leap day', fields: contactFilterFields, text: "updated ge '2024-02-29'" },
    { title: 'eq null on a date field', fields: postFilterFields, text: 'publishedDate eq null' },
    { title: 'comparisons nested in not, and and or', fields: contactFilterFields, text: "not (name eq 'x' or (state eq 'y' and city ne 'z'))" },
    { title: 'every collection field', fields: collectionFilterFields, text: "id eq 'a' and externalId eq 'b' and title eq 'c' and handle eq 'd' and source eq 'e' and created gt '2024-01-01'" },
    { title: 'post claps as a number', fields: postFilterFields, text: "claps ge 10 and header like '%x%'" },
    { title: 'workspace fields', fields: workspaceFilterFields, text: "name eq 'w' and created lt '2025-01-01'" },
  ])('$title', ({ fields, text }) => {
    expect(() => checkFilter(parseFilter(text), fields)).not.toThrow();
  });
});

describe('checkFilter rejects', () => {
  it.each<{ title: string; fields: FieldTable; text: string; field: string; message: string }>([
    { title: 'an unknown field, listing the filterable ones', fields: contactFilterFields, text: 'foo eq 1', field: 'foo', message: `unknown field 'foo'; filterable fields are ${contactFields}` },
    { title: 'a field in the wrong case', fields: contactFilterFields, text: "Name eq 'x'", field: 'Name', message: `unknown field 'Name'; filterable fields are ${contactFields}` },
    { title: 'an Object prototype key', fields: contactFilterFields, text: "constructor eq 'x'", field: 'constructor', message: "unknown field 'constructor'" },
    { title: '__proto__', fields: contactFilterFields, text: "__proto__ eq 'x'", field: '__proto__', message: "unknown field '__proto__'" },
    { title: 'a contact field on products', fields: productFilterFields, text: "email eq 'x'", field: 'email', message: "unknown field 'email'" },
    { title: 'a string for a number', fields: productFilterFields, text: "price eq 'abc'", field: 'price', message: "field 'price' expects a number, got 'abc'" },
    { title: 'a boolean for a number', fields: productFilterFields, text: 'price eq true', field: 'price', message: "field 'price' expects a number, got true" },
    { title: 'a number for a string', fields: contactFilterFields, text: 'postalCode eq 12345', field: 'postalCode', message: "field 'postalCode' expects a string, got 12345" },
    { title: 'a string in an in list of numbers', fields: productFilterFields, text: "price in (1, '2')", field: 'price', message: "field 'price' expects a number, got '2'" },
    { title: 'a string for a boolean', fields: productFilterFields, text: "isForSale eq 'yes'", field: 'isForSale', message: "field 'isForSale' expects true or false, got 'yes'" },
    { title: 'null with gt', fields: contactFilterFields, text: 'name gt null', field: 'name', message: 'null can only be compared with eq or ne' },
    { title: 'null in an in list', fields: contactFilterFields, text: "name in ('a', null)", field: 'name', message: 'null can only be compared with eq or ne' },
    { title: 'null in between', fields: productFilterFields, text: 'price between null and 5', field: 'price', message: 'null can only be compared with eq or ne' },
    { title: 'null with like', fields: contactFilterFields, text: 'name like null', field: 'name', message: 'null can only be compared with eq or ne' },
    { title: 'like on a number field', fields: productFilterFields, text: "price like '1%'", field: 'price', message: "like applies to text fields, not 'price'" },
    { title: 'like on a date field', fields: contactFilterFields, text: "created like '2024%'", field: 'created', message: "like applies to text fields, not 'created'" },
    { title: 'like on a boolean field', fields: productFilterFields, text: "isForSale like 't%'", field: 'isForSale', message: "like applies to text fields, not 'isForSale'" },
    { title: 'like on a string-array field', fields: productFilterFields, text: "tags like 'v%'", field: 'tags', message: "like applies to text fields, not 'tags'" },
    { title: 'gt on a boolean field', fields: productFilterFields, text: 'isForSale gt false', field: 'isForSale', message: "operator 'gt' does not apply to boolean field 'isForSale'; use eq, ne or in" },
    { title: 'between on a boolean field', fields: productFilterFields, text: 'isForSale between false and true', field: 'isForSale', message: "operator 'between' does not apply to boolean field 'isForSale'; use eq, ne or in" },
    { title: 'lt on a string-array field', fields: productFilterFields, text: "collectionIds lt 'c'", field: 'collectionIds', message: "operator 'lt' does not apply to string-array field 'collectionIds'; use eq (has), ne (has not) or in (has any)" },
    { title: 'a number for a string-array field', fields: contactFilterFields, text: 'tags eq 5', field: 'tags', message: "field 'tags' expects a string, got 5" },
    { title: 'a word for a date', fields: contactFilterFields, text: "created gt 'yesterday'", field: 'created', message: "field 'created' expects an ISO 8601 date, got 'yesterday'" },
    { title: 'a number for a date', fields: contactFilterFields, text: 'created gt 20240101', field: 'created', message: "field 'created' expects an ISO 8601 date, got 20240101" },
    { title: 'a quote in a bad date, quoted as in the language', fields: contactFilterFields, text: "created gt 'it''s'", field: 'created', message: "field 'created' expects an ISO 8601 date, got 'it''s'" },
    { title: 'February 30th', fields: contactFilterFields, text: "created eq '2024-02-30'", field: 'created', message: "got '2024-02-30'" },
    { title: 'a bad date as the upper bound of between', fields: postFilterFields, text: "publishedDate between '2024-01-01' and '2024-13-01'", field: 'publishedDate', message: "got '2024-13-01'" },
    { title: 'the first bad comparison deep inside the tree', fields: contactFilterFields, text: "name eq 'x' and (state eq 'y' or not city eq 1)", field: 'city', message: "field 'city' expects a string, got 1" },
    { title: 'any field when the table is empty', fields: {}, text: 'a eq 1', field: 'a', message: "unknown field 'a'; this endpoint has no filterable fields" },
    { title: 'a fraction for an integer field', fields: postFilterFields, text: 'claps gt 1.5', field: 'claps', message: "field 'claps' expects an integer from -2147483648 to 2147483647, got 1.5" },
    { title: 'an integer past the column', fields: postFilterFields, text: 'claps lt 2147483648', field: 'claps', message: "field 'claps' expects an integer from -2147483648 to 2147483647, got 2147483648" },
    { title: 'a huge number for an integer field', fields: postFilterFields, text: 'claps eq 1e308', field: 'claps', message: "got 1e+308" },
    { title: 'an amount below 0', fields: productFilterFields, text: 'price ge -0.01', field: 'price', message: "field 'price' expects a number from 0 to 1000000000000, got -0.01" },
    { title: 'an amount past 1e12 in between', fields: productFilterFields, text: 'originalPrice between 1 and 1e13', field: 'originalPrice', message: "field 'originalPrice' expects a number from 0 to 1000000000000, got 10000000000000" },
    { title: 'a date before 1970', fields: contactFilterFields, text: "created gt '1969-12-31T23:59:59Z'", field: 'created', message: "field 'created' expects a date between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC), got '1969-12-31T23:59:59Z'" },
    { title: 'a date that its offset takes past 9999', fields: postFilterFields, text: "publishedDate lt '9999-12-31T23:59:59-23:59'", field: 'publishedDate', message: "expects a date between" },
    { title: 'a date-time without offset (UTC) before 1970', fields: contactFilterFields, text: "updated in ('2026-01-01', '1969-12-31T23:59')", field: 'updated', message: "got '1969-12-31T23:59'" },
  ])('$title', ({ fields, text, field, message }) => {
    let error: unknown;
    try {
      checkFilter(parseFilter(text), fields);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FilterFieldError);
    expect((error as FilterFieldError).message).toContain(message);
    expect((error as FilterFieldError).field).toBe(field);
  });

  it('rejects a built non-finite number on a number field', () => {
    const node: FilterNode = compare('price', 'gt', Number.NaN);
    expect(() => checkFilter(node, productFilterFields)).toThrow("field 'price' expects a number, got NaN");
  });
});

describe('isIsoDate', () => {
  it.each([
    ['2024-05-01', true],
    ['2024-05-01T10:30', true],
    ['2024-05-01T10:30:59', true],
    ['2024-05-01T10:30:00.5Z', true],
    ['2024-05-01T10:30:00+02:00', true],
    ['2024-05-01T10:30-0530', true],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2023-02-29', false],
    ['2024-04-31', false],
    ['2024-00-10', false],
    ['2024-01-00', false],
    ['2024-01-01T24:00', false],
    ['2024-01-01T10:60', false],
    ['2024-01-01T10:00:60', false],
    ['2024-01-01T10:00+24:00', false],
    ['2024-01-01 10:00', false],
    ['2024-1-1', false],
    ['2024-01-01T10', false],
    ['2024-01-01T10:00:00.1234567890Z', false],
    ['yesterday', false],
    ['', false],
  ])('answers %j with %s', (text, expected) => {
    expect(isIsoDate(text)).toBe(expected);
  });
});

describe('checkOrderBy', () => {
  it('accepts sortable fields', () => {
    expect(() => checkOrderBy([{ field: 'name', direction: 'asc' }, { field: 'created', direction: 'desc' }], contactSortFields)).not.toThrow();
  });

  it.each<{ title: string; sortable: readonly string[]; field: string; message: string }>([
    { title: 'a field that is not sortable, listing the sortable ones', sortable: contactSortFields, field: 'bio', message: "cannot sort by 'bio'; sortable fields are name, email, phone, state, city, created, updated" },
    { title: 'a filterable but not sortable field', sortable: postSortFields, field: 'header', message: "cannot sort by 'header'; sortable fields are publishedDate, claps" },
    { title: 'any field on an endpoint without sortable fields', sortable: productSortFields, field: 'price', message: "cannot sort by 'price'; this endpoint has no sortable fields" },
  ])('rejects $title', ({ sortable, field, message }) => {
    let error: unknown;
    try {
      checkOrderBy([{ field, direction: 'desc' }], sortable);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OrderByFieldError);
    expect((error as OrderByFieldError).message).toBe(message);
    expect((error as OrderByFieldError).field).toBe(field);
  });
});

describe('parseAndCheckFilter and parseAndCheckOrderBy', () => {
  it('returns the checked tree', () => {
    expect(parseAndCheckFilter("name eq 'x'", contactFilterFields)).toEqual(compare('name', 'eq', 'x'));
  });

  it.each<{ title: string; run: () => unknown; type: new (...args: never[]) => Error }>([
    { title: 'a filter syntax error', run: () => parseAndCheckFilter("name eqq 'x'", contactFilterFields), type: FilterSyntaxError },
    { title: 'a filter field error', run: () => parseAndCheckFilter("bio eq 'x'", contactFilterFields), type: FilterFieldError },
    { title: 'an $orderBy syntax error', run: () => parseAndCheckOrderBy('name up', contactSortFields), type: OrderBySyntaxError },
    { title: 'an $orderBy field error', run: () => parseAndCheckOrderBy('bio', contactSortFields), type: OrderByFieldError },
  ])('throws $title', ({ run, type }) => {
    expect(run).toThrow(type);
  });

  it('returns the checked $orderBy items', () => {
    expect(parseAndCheckOrderBy('claps desc, publishedDate', postSortFields)).toEqual([
      { field: 'claps', direction: 'desc' },
      { field: 'publishedDate', direction: 'asc' },
    ]);
  });
});

describe('field tables', () => {
  it.each([
    { endpoint: 'contacts', fields: contactFilterFields, sortable: contactSortFields },
    { endpoint: 'products', fields: productFilterFields, sortable: productSortFields },
    { endpoint: 'collections', fields: collectionFilterFields, sortable: collectionSortFields },
    { endpoint: 'posts', fields: postFilterFields, sortable: postSortFields },
    { endpoint: 'workspaces', fields: workspaceFilterFields, sortable: workspaceSortFields },
  ])('$endpoint: every field can be written in a filter and every sortable field is filterable', ({ fields, sortable }) => {
    for (const field of Object.keys(fields)) expect(isFieldName(field)).toBe(true);
    for (const field of sortable) expect(Object.keys(fields)).toContain(field);
  });
});
