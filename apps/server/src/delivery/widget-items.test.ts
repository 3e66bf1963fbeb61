import { describe, expect, test } from 'vitest';
import { type Material, materialItem } from './widget-items.ts';

const material = (id: number): Material => ({
  id,
  siteId: 3,
  title: `Article ${id}`,
  text: 'What it is about',
  image: '',
  url: `https://publisher.example/article/${id}`,
  language: 'en',
  category: 'news',
  publishedAt: null,
});

describe('widget items of materials', () => {
  test('a material is one item, whatever asks for it, and nobody can change it under the others', () => {
    const m = material(1);
    const item = materialItem(m);
    expect(item).toEqual({
      id: 'm1',
      title: 'Article 1',
      text: 'What it is about',
      image: '',
      url: 'https://publisher.example/article/1',
      brand: '',
      sponsored: false,
    });
    // the engine keeps each item's JSON by the item object: it must be the same object every time
    expect(materialItem(m)).toBe(item);
    expect(Object.isFrozen(item)).toBe(true);
    // another material (a newer read of the same article) is another item
    expect(materialItem(material(1))).not.toBe(item);
  });
});
