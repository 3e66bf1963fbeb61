/**
 * Text similarity for articlerelevant and articlerecommend: TF-IDF vectors of title and text, compared by
 * cosine. Words are lower-cased letters and digits of any script, with a light plural stemming (shoes →
 * shoe) and the commonest short words dropped; the IDF comes from the documents being ranked plus the page.
 */

const stop = new Set(
  'the and for are but not you all any can had her was one our out day get has him his how man new now old see two way who boy did its let put say she too use with this that from they will your have more what when were been into than them then only also about over just some such very would there their which these those other after before while where why und der die das ein eine ist mit von den des les une est pour dans que qui sur par pas'.split(
    ' ',
  ),
);

export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw.length < 3 || stop.has(raw)) continue;
    out.push(raw.length > 4 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return out;
}

type Vector = Map<string, number>;

function counts(text: string): Vector {
  const v: Vector = new Map();
  for (const t of tokens(text)) v.set(t, (v.get(t) ?? 0) + 1);
  return v;
}

/**
 * Scores every document against the query (0…1, higher is closer), in the documents' order. A document
 * sharing no word with the query scores 0.
 */
export function similarities(query: string, documents: readonly string[]): number[] {
  const q = counts(query);
  if (q.size === 0) return documents.map(() => 0);
  const docs = documents.map(counts);
  const df = new Map<string, number>();
  for (const d of [q, ...docs]) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length + 1;
  const weigh = (v: Vector): Vector => {
    const w: Vector = new Map();
    for (const [t, c] of v) w.set(t, (1 + Math.log(c)) * (1 + Math.log(n / (df.get(t) ?? 1))));
    return w;
  };
  const norm = (v: Vector) => Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0)) || 1;
  const qw = weigh(q);
  const qn = norm(qw);
  return docs.map((d) => {
    const dw = weigh(d);
    let dot = 0;
    for (const [t, x] of dw) dot += x * (qw.get(t) ?? 0);
    return dot / (qn * norm(dw));
  });
}

/** The items ordered by similarity to the query, best first; ties keep their order (random picks stay random). */
export function rankBySimilarity<T>(query: string, items: readonly T[], text: (item: T) => string): T[] {
  const scores = similarities(query, items.map(text));
  return items
    .map((item, i) => ({ item, i, s: scores[i] as number }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.item);
}
