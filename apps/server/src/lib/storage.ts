import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Where uploaded files live. Keys are slash-separated paths chosen by the server (never by a client),
 * e.g. `agencies/7-3f9a….png`; an object-storage implementation can replace the local disk one.
 */
export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | undefined>;
  delete(key: string): Promise<void>;
}

/** Keys the server writes: lower-case segments of letters, digits, `-`, `_` and one extension. */
export const storageKeyPattern = /^(?:[a-z0-9_-]+\/)*[a-z0-9_-]+\.[a-z0-9]{1,8}$/;

const typesByExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

/** Files under `root` (DATA_DIR/uploads); the content type follows the key's extension. */
export function localDiskStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!storageKeyPattern.test(key)) throw new Error(`bad storage key: ${key}`);
    const path = resolve(base, key);
    if (!path.startsWith(base + sep)) throw new Error(`bad storage key: ${key}`);
    return path;
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // written aside then renamed, so a reader never sees half a file
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    },
    async get(key) {
      if (!storageKeyPattern.test(key)) return undefined;
      try {
        const bytes = await readFile(pathOf(key));
        const ext = key.slice(key.lastIndexOf('.') + 1);
        return { bytes, contentType: typesByExtension[ext] ?? 'application/octet-stream' };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

export const uploadsDir = (dataDir: string) => join(dataDir, 'uploads');
