import { expect, test } from 'vitest';
import { landingUrl } from '../delivery/engine.ts';
import { headerUrl } from './location.ts';

test('a Location beyond ASCII is percent-encoded; a plain one keeps its exact text', () => {
  expect(headerUrl('https://shop.example/обувь?q=кеды')).toBe(
    'https://shop.example/%D0%BE%D0%B1%D1%83%D0%B2%D1%8C?q=%D0%BA%D0%B5%D0%B4%D1%8B',
  );
  expect(headerUrl('https://магазин.example/a b')).toBe('https://xn--80aairftm.example/a%20b');
  expect(headerUrl('https://shop.example')).toBe('https://shop.example');
  expect(headerUrl('https://shop.example/a?b=%D0%B0#x')).toBe('https://shop.example/a?b=%D0%B0#x');
});

test('the landing URL of a click (widgets and the exchange alike) can always be sent as a header', () => {
  const url = landingUrl('https://shop.example/обувь#top', 'utm_term=зима&c={campaign_id}', {
    campaign_id: '7',
  });
  expect(url).toBe(
    'https://shop.example/%D0%BE%D0%B1%D1%83%D0%B2%D1%8C?utm_term=%D0%B7%D0%B8%D0%BC%D0%B0&c=7#top',
  );
  expect(() => new Headers({ location: url })).not.toThrow();
});
