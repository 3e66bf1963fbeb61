import { useCallback, useState } from 'react';
import { notifyError } from '../../../lib/notify.ts';

interface ActionState<O> {
  isPending: boolean;
  isSuccess: boolean;
  data: O | undefined;
  error: unknown;
}

const idle = { isPending: false, isSuccess: false, data: undefined, error: null };

/**
 * A one-shot request with its pending, success and error state, the part of useMutation the login
 * and password pages need: they open without TanStack Query. `silent: false` shows failures as toasts
 * (as the query client's MutationCache does for mutations).
 */
export function useAction<I, O>(run: (input: I) => Promise<O>, { silent = true } = {}) {
  const [state, setState] = useState<ActionState<O>>(idle);
  const mutateAsync = useCallback(
    async (input: I): Promise<O> => {
      setState({ ...idle, isPending: true });
      try {
        const data = await run(input);
        setState({ ...idle, isSuccess: true, data });
        return data;
      } catch (error) {
        setState({ ...idle, error });
        if (!silent) notifyError(error);
        throw error;
      }
    },
    [run, silent],
  );
  const mutate = useCallback((input: I) => void mutateAsync(input).catch(() => {}), [mutateAsync]);
  return { ...state, mutate, mutateAsync };
}
