import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { printFilter } from '@/api/filter/print';
import { parseFilter } from '@/api/filter/parse';
import { FILTER_MAX_CHARS, IN_MAX_VALUES, exportColumns, idFilters, missingFilters, planExport } from './export-plan';
import { combineTables, readTable, writeTable } from './export-rewrite';

const ids = (count: number) => Array.from({ length: count }, () => randomUUID());
const valuesOf = (node: ReturnType<typeof idFilters>[number]) => (node.kind === 'in' ? node.values : []);

describe('idFilters: a selection of any size as the fewest `id in (…)` filters within the limits', () => {
  it.each([1, 2, 48, 49, 50, 100, 101, 1000, 5000])('%i ids: every id once, in order, each filter within 2,000 characters and 100 values', (count) => {
    const selected = ids(count);
    const filters = idFilters(selected);
    expect(filters.flatMap(valuesOf)).toEqual(selected);
    for (const filter of filters) {
      const text = printFilter(filter);
      expect(text.length).toBeLessThanOrEqual(FILTER_MAX_CHARS);
      expect(valuesOf(filter).length).toBeLessThanOrEqual(IN_MAX_VALUES);
      expect(parseFilter(text)).toEqual(filter); // the service reads back exactly these ids
    }
    // Greedy packing is the fewest: every filter but the last is full (one more id would break the limit).
    const perFilter = valuesOf(filters[0]!).length;
    expect(perFilter).toBe(Math.min(count, 49));
    expect(filters).toHaveLength(Math.ceil(count / 49));
  });

  it('collapses repeated ids and gives nothing for none', () => {
    const [a, b] = ids(2);
    expect(idFilters([a!, b!, a!]).flatMap(valuesOf)).toEqual([a, b]);
    expect(idFilters([])).toEqual([]);
  });

  it('packs short ids up to the 100-value limit', () => {
    const short = Array.from({ length: 250 }, (_, i) => `c${i}`);
    expect(idFilters(short).map((filter) => valuesOf(filter).length)).toEqual([100, 100, 50]);
  });

  it('refuses an id too long for any filter', () => {
    expect(() => idFilters(['x'.repeat(2000)])).toThrow(RangeError);
  });
});

describe('planExport', () => {
  const filter = { kind: 'compare', field: 'state', operator: 'eq', value: 'active' } as const;

  it('exports the list as the service writes it when nothing is selected and all fields are wanted', () => {
    expect(planExport({ selectedIds: [], filter, total: 2001, columns: null })).toEqual({ filters: [filter], keepIds: null, columns: null, rewrite: false });
  });

  it('exports 2 selected rows by their ids in one request, whatever the list holds', () => {
    const selected = ids(2);
    const plan = planExport({ selectedIds: selected, filter, total: 2001, columns: null });
    expect(plan.filters).toEqual([{ kind: 'in', field: 'id', values: selected }]);
    expect(plan.rewrite).toBe(false);
  });

  it('cuts the columns in the browser when only the visible ones are wanted', () => {
    expect(planExport({ selectedIds: ids(2), filter, total: 10, columns: ['name', 'email'] }).rewrite).toBe(true);
  });

  it('fetches a small list whole once and keeps the selection, rather than three requests by id', () => {
    const selected = ids(100);
    const plan = planExport({ selectedIds: selected, filter, total: 2000, columns: null });
    expect(plan.filters).toEqual([filter]);
    expect([...plan.keepIds!]).toEqual(selected);
    expect(plan.rewrite).toBe(true);
  });

  it('asks by id when the list is too large to fetch whole', () => {
    const plan = planExport({ selectedIds: ids(100), filter, total: 1_000_000, columns: null });
    expect(plan.filters).toHaveLength(3);
    expect(plan.keepIds).toBeNull();
  });

  it('asks by id for the selected rows the list did not hold', () => {
    const selected = ids(5);
    expect(missingFilters(selected, new Set(selected.slice(0, 3))).flatMap(valuesOf)).toEqual(selected.slice(3));
    expect(missingFilters(selected, new Set(selected))).toEqual([]);
  });
});

describe('exportColumns', () => {
  const table = ['name', 'email', 'phone', 'state', 'tags', 'city', 'source', 'created'];
  it('keeps the shown table columns in the export order, or every field', () => {
    expect(exportColumns('visible', ['phone', 'city'], table)).toEqual(['name', 'email', 'state', 'tags', 'source', 'created']);
    expect(exportColumns('all', ['phone'], table)).toBeNull();
  });
});

describe('joining and writing export files', () => {
  const csv = (lines: string[]) => new Blob(['\uFEFF' + lines.join('\r\n') + '\r\n'], { type: 'text/csv' });
  const partA = csv(['id,name,email,phone,tags', 'a,Åse Berg,ase@example.no,+47 912 34 567,"vip, lead"', "b,'=HYPERLINK(1),,,"]);
  const partB = csv(['id,name,email,phone,tags', 'c,"Ola ""Nordmann""",ola@example.no,,']);

  it('joins CSV parts, keeps the chosen rows and columns, and writes CSV as the service does (BOM, CRLF, quoting, guard kept)', async () => {
    const tables = [await readTable(partA, 'csv'), await readTable(partB, 'csv')];
    const { rows, ids: seen } = combineTables(tables, { keepIds: new Set(['b', 'c']), columns: ['name', 'tags'] });
    expect([...seen]).toEqual(['a', 'b', 'c']);
    expect(rows).toEqual([['name', 'tags'], ["'=HYPERLINK(1)", ''], ['Ola "Nordmann"', '']]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await writeTable(rows, 'csv')).arrayBuffer());
    expect(text).toBe('\uFEFFname,tags\r\n\'=HYPERLINK(1),\r\n"Ola ""Nordmann""",\r\n');
  });

  it('keeps every row and column when asked for nothing less', async () => {
    const { rows } = combineTables([await readTable(partA, 'csv')], { keepIds: null, columns: null });
    expect(rows).toEqual([['id', 'name', 'email', 'phone', 'tags'], ['a', 'Åse Berg', 'ase@example.no', '+47 912 34 567', 'vip, lead'], ['b', "'=HYPERLINK(1)", '', '', '']]);
  });

  it('writes xlsx that reads back as the same cells, text never a formula', async () => {
    const rows = [['id', 'name', 'phone'], ['a', '=1+1', '+47 912 34 567'], ['b', 'Åse', null]];
    const blob = await writeTable(rows, 'xlsx');
    expect(await readTable(blob, 'xlsx')).toEqual([['id', 'name', 'phone'], ['a', '=1+1', '+47 912 34 567'], ['b', 'Åse', null]]);
  });

  it('names a column the export lacks', () => {
    expect(() => combineTables([[['id', 'name']]], { keepIds: null, columns: ['city'] })).toThrow('without the column “city”');
  });
});
