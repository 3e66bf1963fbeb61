import { describe, expect, test } from 'vitest';
import { parseNativeRequest } from './openrtb.ts';

describe('parseNativeRequest', () => {
  const v12 = JSON.stringify({
    ver: '1.2',
    assets: [
      { id: 1, required: 1, title: { len: 50 } },
      { id: 2, img: { type: 3, w: 300, h: 200 } },
    ],
    eventtrackers: [{ event: 1, methods: [1] }],
  });

  test('a template read again is the same reading, frozen, as a first read of a copy', () => {
    const first = parseNativeRequest(v12);
    if (!first) throw new Error('not read');
    expect(first.assets.map((a) => a.kind)).toEqual(['title', 'img']);
    expect(parseNativeRequest(v12)).toBe(first);
    expect(parseNativeRequest(JSON.parse(v12))).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.assets[0])).toBe(true);
    expect(() => {
      (first.assets as unknown[]).push({});
    }).toThrow();
  });

  test('the imp’s version takes part: a request without its own ver reads differently under 1.1 and 1.2', () => {
    const bare = JSON.stringify({ assets: [{ id: 1, title: { len: 25 } }] });
    expect(parseNativeRequest(bare, '1.1')?.ver).toBe('1.1');
    expect(parseNativeRequest(bare, '1.2')?.ver).toBe('1.2');
    expect(parseNativeRequest(bare, '1.1')?.ver).toBe('1.1');
  });

  test('what is not a native request stays null, read again or not', () => {
    expect(parseNativeRequest('{"assets":[]}')).toBeNull();
    expect(parseNativeRequest('{"assets":[]}')).toBeNull();
    expect(parseNativeRequest('not json')).toBeNull();
  });
});
