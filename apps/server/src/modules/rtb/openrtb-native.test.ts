import { describe, expect, test } from 'vitest';
import { parseNativeRequest } from './openrtb.ts';
import { imageFor } from './rtb-bidder.ts';

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

describe('imageFor: the size of the creative image a native image asset gets', () => {
  const sizes = [
    [150, 100],
    [300, 300],
    [640, 360],
    [1200, 628],
  ] as const;
  const images = sizes.map(([w, h]) => ({ url: `/u/${w}x${h}.webp`, w, h, mime: 'image/webp' as const }));
  const asset = (over: Partial<Parameters<typeof imageFor>[0]>) =>
    imageFor(
      { id: 1, required: true, kind: 'img', type: 3, w: 0, h: 0, wmin: 0, hmin: 0, mimes: [], ...over },
      images,
    );

  test('wmin/hmin: the smallest size at least that large; none when even the largest is smaller', () => {
    expect(asset({ wmin: 836, hmin: 627 })).toMatchObject({ w: 1200, h: 628 });
    expect(asset({ wmin: 100, hmin: 100, type: 1 })).toMatchObject({ w: 150, h: 100 });
    expect(asset({ wmin: 600, hmin: 600 })).toMatchObject({ w: 1200, h: 628 });
    expect(asset({ wmin: 1300, hmin: 600 })).toBeUndefined();
  });

  test('w/h alone are exact: that size, or one of the same shape at least as large, else none', () => {
    expect(asset({ w: 300, h: 300 })).toMatchObject({ w: 300, h: 300 });
    expect(asset({ w: 320, h: 180 })).toMatchObject({ w: 640, h: 360 });
    expect(asset({ w: 120, h: 100 })).toBeUndefined();
    expect(asset({ w: 50, h: 50, type: 1 })).toMatchObject({ w: 300, h: 300 });
  });

  test('no size asked: an icon the smallest, a main image the largest; mimes without WebP: none', () => {
    expect(asset({ type: 1 })).toMatchObject({ w: 150, h: 100 });
    expect(asset({ type: 3 })).toMatchObject({ w: 1200, h: 628 });
    expect(asset({ mimes: ['image/jpeg', 'image/png'] })).toBeUndefined();
    expect(asset({ mimes: ['image/webp'] })).toMatchObject({ w: 1200 });
  });
});
