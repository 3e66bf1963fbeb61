import type { FastifyRequest } from 'fastify';
import { FieldsError } from './errors.ts';
import { type ImageType, sniffImageType } from './image-type.ts';
import { decodesAsImage } from './images.ts';

const invalidFile = () => new FieldsError([{ field: 'file', code: 'invalid_file' }]);

/**
 * The bytes of the one file of a multipart request. Not multipart, too large, too many parts, malformed
 * or empty: all the same 422 on `file`, so nothing half-read is kept.
 */
export async function readUploadedFile(req: FastifyRequest, maxBytes?: number): Promise<Buffer> {
  let bytes: Buffer | undefined;
  try {
    const file = await req.file(maxBytes ? { limits: { fileSize: maxBytes, files: 1 } } : undefined);
    bytes = await file?.toBuffer();
  } catch {
    // what the multipart reader refuses (too large, too many parts, a body cut short or without its
    // closing boundary, no boundary at all) is the client's: the same 422
    throw invalidFile();
  }
  if (!bytes?.length) throw invalidFile();
  return bytes;
}

/** An uploaded text file (CSV); binary content is refused like any unreadable file. */
export async function readUploadedText(req: FastifyRequest): Promise<string> {
  const text = (await readUploadedFile(req)).toString('utf8');
  if (text.includes('\u0000')) throw invalidFile();
  return text;
}

/**
 * The one uploaded image of a multipart request, with the failure said precisely: larger than
 * `maxBytes` → 422 `image_too_large` (with the limit in MB), not an image by its bytes → 422 `image_type`,
 * nothing sent → 422 `invalid_file`; all on `file`.
 */
export async function readImageStrict(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ bytes: Buffer; type: ImageType }> {
  const tooLarge = () =>
    new FieldsError([
      { field: 'file', code: 'image_too_large', params: { max: Math.floor(maxBytes / 1024 / 1024) } },
    ]);
  let bytes: Buffer | undefined;
  try {
    const file = await req.file({ limits: { fileSize: maxBytes, files: 1 } });
    bytes = await file?.toBuffer();
    if (file?.file.truncated) throw Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw invalidFile();
  }
  if (!bytes?.length) throw invalidFile();
  if (bytes.length > maxBytes) throw tooLarge();
  const type = sniffImageType(bytes);
  // a known image's first bytes are not enough: the rest must decode too
  if (!type || !(await decodesAsImage(bytes))) throw new FieldsError([{ field: 'file', code: 'image_type' }]);
  return { bytes, type };
}
