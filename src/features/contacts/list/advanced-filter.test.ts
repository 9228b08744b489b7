import { describe, expect, it } from 'vitest';
import { rowsText, rowsView } from './advanced-filter';

describe('the Advanced box\'s rows and text', () => {
  it('starts with one blank row for no filter, which writes no text', () => {
    const view = rowsView('  ');
    expect(view).toEqual({ kind: 'rows', rows: { join: 'and', rows: [{ field: 'state', operator: 'eq', values: [''] }] } });
    expect(view.kind === 'rows' && rowsText(view.rows)).toBe('');
  });

  it('reads a flat filter as rows and writes them back as the same text', () => {
    const text = "state eq 'active' and city like 'Os'";
    const view = rowsView(text);
    expect(view.kind).toBe('rows');
    expect(view.kind === 'rows' && rowsText(view.rows)).toBe(text);
  });

  it('says when the text can only be edited as text, or is not yet a filter', () => {
    expect(rowsView("not state eq 'active'")).toEqual({ kind: 'text', reason: 'notFlat' });
    expect(rowsView("state eqq 'active'")).toEqual({ kind: 'text', reason: 'invalid' });
    expect(rowsView("bio eq 'x'")).toEqual({ kind: 'text', reason: 'invalid' });
  });

  it('writes rows the parser would refuse (an in list over 100 values) as text, whose check then says why', () => {
    const values = Array.from({ length: 101 }, (_, i) => `t${i}`);
    const text = rowsText({ join: 'and', rows: [{ field: 'tags', operator: 'in', values }] });
    expect(text).toMatch(/^tags in \('t0', /);
    expect(rowsView(text)).toEqual({ kind: 'text', reason: 'invalid' });
  });
});
