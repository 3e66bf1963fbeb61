const palettes = [
  ['#7367f0', '#ce9ffc'],
  ['#28c76f', '#81fbb8'],
  ['#ea5455', '#feb692'],
  ['#ff9f43', '#ffd26f'],
  ['#00cfe8', '#90f7ec'],
  ['#4b4b4b', '#a8a8a8'],
  ['#1e6fd9', '#7fb2ff'],
  ['#9c27b0', '#f48fb1'],
];

/** A gradient placeholder picture for preview items (16:9, no text, so it suits every language). */
export function sampleSvg(n: number): string {
  const [a, b] = palettes[(n - 1) % palettes.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="640" height="360" fill="url(#g)"/><circle cx="${120 + n * 50}" cy="150" r="70" fill="#fff" fill-opacity=".18"/><rect x="60" y="250" width="360" height="26" rx="13" fill="#fff" fill-opacity=".35"/></svg>`;
}
