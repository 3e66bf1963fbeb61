import { decodedUrl } from '@adp/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/decode-url: what a URL (ours or any other) says. */
export const useDecodeUrl = () =>
  useMutation({
    mutationFn: (url: string) =>
      apiRequest('/decode-url', { method: 'POST', json: { url }, schema: decodedUrl }),
  });
