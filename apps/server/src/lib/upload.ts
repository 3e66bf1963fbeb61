import type { FastifyRequest } from 'fastify';
import { FieldsError } from './errors.ts';
import { type ImageType, sniffImageType } from './image-type.ts';

/**
 * Reads the one file of a multipart request and checks it is an image by its bytes. Any failure (not
 * multipart, too large, not an image) is the same 422 on `file`, so nothing half-read is kept.
 */
export async function readImageUpload(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ bytes: Buffer; type: ImageType }> {
  let bytes: Buffer | undefined;
  try {
    const file = await req.file({ limits: { fileSize: maxBytes, files: 1 } });
    bytes = await file?.toBuffer();
  } catch (err) {
    if (!String((err as { code?: string }).code ?? '').startsWith('FST_')) throw err;
  }
  const type = bytes?.length ? sniffImageType(bytes) : undefined;
  if (!bytes || !type || bytes.length > maxBytes)
    throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
  return { bytes, type };
}
