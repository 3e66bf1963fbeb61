import { type BannerImageFormat, bannerImageFormats } from '@adp/contract';
import sharp, { type Metadata } from 'sharp';
import { AppError, FieldsError } from './errors.ts';
import { sniffImageType } from './image-type.ts';

/** The longest side a stored logo keeps. */
const LOGO_SIDE = 512;

/**
 * An uploaded logo, decoded and written again as PNG (at most 512 px a side, transparency kept): what is
 * stored is an image we made, not the uploaded bytes (a file that only starts like an image, with a script
 * or anything else after its first bytes, is a 422 on `file`).
 */
export async function renderLogo(bytes: Buffer): Promise<Buffer> {
  if (!sniffImageType(bytes)) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
  try {
    return await sharp(bytes, { limitInputPixels: MAX_SIDE * MAX_SIDE })
      .rotate()
      .resize(LOGO_SIDE, LOGO_SIDE, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
  }
}

/**
 * Whether the bytes decode as an image (a reduced decode: small whatever the image's size), not only start
 * like one: a file of a GIF header and a script is no image, and would show broken wherever it is used.
 */
export async function decodesAsImage(bytes: Buffer): Promise<boolean> {
  try {
    await sharp(bytes, { limitInputPixels: MAX_SIDE * MAX_SIDE, failOn: 'error' })
      .resize(16, 16, { fit: 'inside' })
      .raw()
      .toBuffer();
    return true;
  } catch {
    return false;
  }
}

export const MIN_WIDTH = 300;
export const MIN_HEIGHT = 200;
const MAX_SIDE = 8000;

/**
 * Checks an uploaded creative image (type by its bytes, dimensions) and renders every format the widget
 * layouts use, cropped to fill, as WebP. Anything else in the file (metadata, animation) is dropped.
 */
export async function renderBannerImages(bytes: Buffer): Promise<Record<BannerImageFormat, Buffer>> {
  if (!sniffImageType(bytes)) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_SIDE * MAX_SIDE }).metadata();
  } catch {
    throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width > MAX_SIDE || height > MAX_SIDE) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
  if (width < MIN_WIDTH || height < MIN_HEIGHT) {
    throw new AppError(422, 'image_too_small', { width: MIN_WIDTH, height: MIN_HEIGHT }, 'file');
  }
  const out = {} as Record<BannerImageFormat, Buffer>;
  for (const [name, [w, h]] of Object.entries(bannerImageFormats) as [
    BannerImageFormat,
    readonly [number, number],
  ][]) {
    out[name] = await sharp(bytes)
      .rotate()
      .resize(w, h, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  }
  return out;
}

/** MP4 (an `ftyp` box) or WebM (EBML header), by the bytes. */
export function sniffVideoType(bytes: Uint8Array): { ext: 'mp4' | 'webm'; contentType: string } | undefined {
  if (bytes.length > 12 && bytes[4] === 0x66 && bytes[5] === 0x74 && bytes[6] === 0x79 && bytes[7] === 0x70) {
    return { ext: 'mp4', contentType: 'video/mp4' };
  }
  if (bytes.length > 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return { ext: 'webm', contentType: 'video/webm' };
  }
  return undefined;
}
