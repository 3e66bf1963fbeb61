import type { WidgetItem } from '@adp/contract';

/** Items for the widget's tests: `n` distinct http(s) ads. */
export function makeItems(n: number, from = 0): WidgetItem[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + from;
    return {
      id: `i${i}`,
      title: `Title ${i}`,
      text: `Text of item ${i}`,
      image: `https://cdn.example.com/${i}.jpg`,
      url: `https://advertiser.example.com/${i}`,
      sponsored: true,
    };
  });
}

export function shadowOf(host: HTMLElement): ShadowRoot {
  const root = host.shadowRoot;
  if (!root) throw new Error('no shadow root');
  return root;
}

export function newHost(): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  return host;
}
