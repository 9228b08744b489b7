import { describe, expect, it } from 'vitest';
import { hiddenOf, nameProblem, viewSearch } from './saved-view-store';

const view = (id: string, name: string) => ({ id, name, search: '', created: '2026-07-01T10:00:00.000Z' });

describe('viewSearch', () => {
  it('leaves the page out, adds the hidden columns, and sorts the keys, so one view has one text', () => {
    expect(viewSearch(new URLSearchParams('state=active&page=3&sort=name%3Aasc'), ['phone', 'city'])).toBe('hide=city%2Cphone&sort=name%3Aasc&state=active');
    expect(viewSearch(new URLSearchParams('sort=name%3Aasc&state=active'), ['city', 'phone'])).toBe(viewSearch(new URLSearchParams('page=2&state=active&sort=name%3Aasc'), ['phone', 'city']));
    expect(viewSearch(new URLSearchParams('hide=email&q=x'))).toBe('q=x');
    expect(viewSearch(new URLSearchParams(''))).toBe('');
  });
});

describe('nameProblem', () => {
  const views = [view('1', 'Active'), view('2', 'Oslo')];
  it.each([
    ['', 'missing'],
    ['   ', 'missing'],
    ['x'.repeat(61), 'too-long'],
    [' active ', 'taken'],
  ])('refuses %j: %s', (name, problem) => {
    expect(nameProblem(views, name)).toBe(problem);
  });

  it('accepts a new name, and a view keeping its own name on a rename', () => {
    expect(nameProblem(views, 'Pending')).toBeNull();
    expect(nameProblem(views, 'ACTIVE', '1')).toBeNull();
  });
});

describe('hiddenOf', () => {
  it('reads a hide parameter: trimmed ids, blanks and repeats dropped', () => {
    expect(hiddenOf(' city,,phone,city ')).toEqual(['city', 'phone']);
  });
});
