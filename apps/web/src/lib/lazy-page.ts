import type { ComponentType } from 'react';

/** SPEC.md section 9: a route chunk that has not arrived after two minutes is reported as failed. */
export const CHUNK_LOAD_TIMEOUT = 120_000;

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('chunk_load', { cause });
    this.name = 'ChunkLoadError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A React Router `lazy` function for one named page export.
 * @example { path: 'login', lazy: lazyPage(() => import('../features/auth/login-page.tsx'), 'LoginPage') }
 */
export function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  exportName: keyof M & string,
  timeout = CHUNK_LOAD_TIMEOUT,
): () => Promise<{ Component: ComponentType }> {
  return async () => {
    let module: M;
    try {
      module = await withTimeout(load(), timeout);
    } catch (error) {
      throw new ChunkLoadError(error);
    }
    return { Component: module[exportName] as ComponentType };
  };
}
