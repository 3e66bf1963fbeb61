import { z } from 'zod';

/**
 * The parts of an OpenRTB 2.5 / 2.6 bid request the bidder reads, checked with zod. Every other field (ext
 * included) is accepted and left out of the parsed request (plain objects strip: zod's fast path; loose
 * ones cost twice as much per request); a field we read with the wrong type is a 400 with its path, never
 * a crash. Native markup travels as a string in `imp.native.request` and is read apart
 * (`parseNativeRequest`): a malformed one only drops its imp.
 */
const str = z.string().max(4096);
const strings = z.array(z.string().max(512)).max(5000);
const ints = z.array(z.number().int()).max(1000);

const format = z.object({
  w: z.number().int().min(0).optional(),
  h: z.number().int().min(0).optional(),
});
const banner = z.object({
  w: z.number().int().min(0).optional(),
  h: z.number().int().min(0).optional(),
  format: z.array(format).max(100).optional(),
  battr: ints.optional(),
});
const native = z.object({
  request: z.union([z.string().max(65_536), z.record(z.string(), z.unknown())]),
  ver: z.string().max(16).optional(),
  battr: ints.optional(),
});
const imp = z.object({
  id: z.string().min(1).max(255),
  banner: banner.optional(),
  native: native.optional(),
  video: z.object({}).optional(),
  audio: z.object({}).optional(),
  bidfloor: z.number().min(0).optional(),
  bidfloorcur: z.string().max(8).optional(),
  secure: z.number().int().optional(),
});
const publisher = z.object({ id: str.optional(), domain: str.optional() });
const site = z.object({
  id: str.optional(),
  domain: str.optional(),
  page: str.optional(),
  publisher: publisher.optional(),
});
const app = z.object({
  id: str.optional(),
  bundle: str.optional(),
  domain: str.optional(),
  publisher: publisher.optional(),
});
const geo = z.object({ country: str.optional() });
const device = z.object({
  ua: str.optional(),
  ip: str.optional(),
  ipv6: str.optional(),
  geo: geo.optional(),
  devicetype: z.number().int().optional(),
  os: str.optional(),
  language: str.optional(),
});

export const bidRequest = z.object({
  id: z.string().min(1).max(255),
  imp: z.array(imp).min(1).max(100),
  site: site.optional(),
  app: app.optional(),
  dooh: z.object({}).optional(),
  device: device.optional(),
  user: z.object({ geo: geo.optional() }).optional(),
  tmax: z.number().int().min(0).optional(),
  test: z.number().int().optional(),
  cur: strings.optional(),
  wseat: strings.optional(),
  bseat: strings.optional(),
  bcat: strings.optional(),
  badv: strings.optional(),
  bapp: strings.optional(),
});
export type BidRequest = z.infer<typeof bidRequest>;
export type BidImp = z.infer<typeof imp>;

/** The first problem of a request that does not parse, as `path: message`. */
export function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const path = issue.path.length ? issue.path.join('.') : 'request';
  return `${path}: ${issue.message}`;
}

// --- Native markup requests ---------------------------------------------------------------------------

/** A native asset we can fill: a title, an image (icon or main) or a data field; anything else we cannot. */
export type NativeAsset =
  | { id: number; required: boolean; kind: 'title'; len: number }
  | {
      id: number;
      required: boolean;
      kind: 'img';
      /** 1 icon, 3 main image (Native 1.2 image asset types). */
      type: number;
      /** The exact size asked for (0: not given); Native 1.2: `w`/`h` alone are an exact requirement. */
      w: number;
      h: number;
      /** The least size the client rescales from (0: not given). */
      wmin: number;
      hmin: number;
      /** The image types the placement takes (empty: any). */
      mimes: string[];
    }
  | { id: number; required: boolean; kind: 'data'; type: number; len: number }
  | { id: number; required: boolean; kind: 'other' };

export interface NativeRequest {
  /** '1.0', '1.1' answer with the `native` wrapper and imptrackers; '1.2' (the default) with eventtrackers. */
  ver: string;
  assets: NativeAsset[];
  /** The event trackers the request allows (event 1 = impression, method 1 = img). */
  imgImpressionTracker: boolean;
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * Reads `imp.native.request` in any shape seen in the wild: a JSON string (Native 1.2 without a wrapper,
 * 1.0/1.1 inside `{"native":{…}}`), an object, with or without `ver`, assets without ids (numbered in
 * order). Null when it is not a native request (malformed, double-encoded, placeholder, no assets).
 */
export function parseNativeRequest(raw: unknown, impVer?: string): NativeRequest | null {
  // an exchange sends the same few native templates again and again: a string read once is kept (read
  // only by its users), at most NATIVE_KEPT of them
  if (typeof raw !== 'string' || raw.length > NATIVE_KEPT_LENGTH) return readNativeRequest(raw, impVer);
  const key = `${impVer ?? ''}\u0000${raw}`;
  let read = nativeRead.get(key);
  if (read === undefined) {
    read = readNativeRequest(raw, impVer);
    // shared from now on: frozen, so a user that changed it would fail loudly, not answer others wrongly
    if (read) {
      for (const a of read.assets) Object.freeze(a);
      Object.freeze(read.assets);
      Object.freeze(read);
    }
    if (nativeRead.size >= NATIVE_KEPT) nativeRead.clear();
    nativeRead.set(key, read);
  }
  return read;
}

const NATIVE_KEPT = 1000;
const NATIVE_KEPT_LENGTH = 8192;
const nativeRead = new Map<string, NativeRequest | null>();

function readNativeRequest(raw: unknown, impVer?: string): NativeRequest | null {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  let root = obj(value);
  if (!root) return null;
  const wrapped = obj(root.native);
  if (wrapped) root = wrapped;
  if (!Array.isArray(root.assets) || root.assets.length === 0 || root.assets.length > 64) return null;
  const ver =
    typeof root.ver === 'string' ? root.ver : typeof root.ver === 'number' ? String(root.ver) : impVer;
  const assets: NativeAsset[] = [];
  const used = new Set<number>();
  for (const [i, a] of root.assets.entries()) {
    const asset = obj(a);
    if (!asset) return null;
    let id = typeof asset.id === 'number' && Number.isInteger(asset.id) ? asset.id : i + 1;
    while (used.has(id)) id += 1000;
    used.add(id);
    const required = asset.required === 1 || asset.required === true;
    const title = obj(asset.title);
    const img = obj(asset.img);
    const data = obj(asset.data);
    if (title) assets.push({ id, required, kind: 'title', len: num(title.len, 90) });
    else if (img)
      assets.push({
        id,
        required,
        kind: 'img',
        type: num(img.type, 3),
        w: num(img.w, 0),
        h: num(img.h, 0),
        wmin: num(img.wmin, 0),
        hmin: num(img.hmin, 0),
        mimes: Array.isArray(img.mimes)
          ? img.mimes.filter((m): m is string => typeof m === 'string').map((m) => m.toLowerCase())
          : [],
      });
    else if (data)
      assets.push({ id, required, kind: 'data', type: num(data.type, 0), len: num(data.len, 0) });
    else assets.push({ id, required, kind: 'other' });
  }
  const trackers = Array.isArray(root.eventtrackers) ? root.eventtrackers : null;
  const imgImpressionTracker =
    !trackers ||
    trackers.some((t) => {
      const e = obj(t);
      return e?.event === 1 && Array.isArray(e.methods) && e.methods.includes(1);
    });
  const version = ver && /^1\.[01]$|^1$/.test(ver) ? (ver === '1' ? '1.0' : ver) : '1.2';
  return { ver: version, assets, imgImpressionTracker };
}
