import { describe, expect, it } from 'vitest';
import { collectionChoices } from './queries';

describe('collectionChoices', () => {
  it('labels collections by title, sorted, telling equal titles apart by handle', () => {
    expect(
      collectionChoices([
        { id: '1', title: 'Winter', handle: 'cold' },
        { id: '2', title: 'Autumn', handle: 'autumn' },
        { id: '3', title: 'Winter', handle: 'snow' },
        { id: '4', title: null, handle: 'untitled' },
      ]),
    ).toEqual([
      { value: '2', label: 'Autumn' },
      { value: '4', label: 'untitled' },
      { value: '1', label: 'Winter (cold)' },
      { value: '3', label: 'Winter (snow)' },
    ]);
  });
});
