import type {
  ForgotPasswordInput,
  MeResponse,
  RegisterInput,
  ResetPasswordInput,
  TokenResponse,
} from '@adp/contract';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import {
  clearCredentials,
  getRefreshToken,
  saveAbility,
  saveCredentials,
} from '../../../lib/auth-storage.ts';
import { useAction } from './use-action.ts';

/**
 * Sign-in, registration and password requests, without TanStack Query (see use-action.ts).
 * The answers are still parsed with the contract's schemas, fetched when a request is made: the
 * login and password pages open without zod (nor CASL, which checks the new session's rights).
 */
const contract = () => import('@adp/contract');

/** `{status}` answers of the password endpoints. */
async function statusOk(answer: Promise<unknown>): Promise<{ status: string }> {
  const body = await answer;
  if (typeof body === 'object' && body !== null && 'status' in body && typeof body.status === 'string')
    return { status: body.status };
  throw new ApiError(200, 'generic', 'unexpected answer');
}

/** A role without rights (dummy) gets no session in the dashboard. */
export class NoRightsError extends Error {
  constructor() {
    super('no_rights');
    this.name = 'NoRightsError';
  }
}

/**
 * Opens the session: the ability is checked before anything is stored, so a role without rights
 * (dummy) never appears logged in, not even for a render.
 */
async function startSession(tokens: TokenResponse): Promise<MeResponse> {
  const [{ meResponse }, { abilityFromRules }] = await Promise.all([contract(), import('@adp/permissions')]);
  const me = await apiRequest('/auth/me', { bearer: tokens.access_token, schema: meResponse });
  if (tokens.role === 'dummy' || !abilityFromRules(me.ability).can('read', 'User')) {
    clearCredentials();
    // The server issued a refresh token all the same; do not leave it alive.
    void apiRequest('/auth/revoke', { auth: false, form: { token: tokens.refresh_token } }).catch(() => {});
    throw new NoRightsError();
  }
  saveCredentials(tokens);
  saveAbility(me.ability);
  return me;
}

export interface LoginInput {
  username: string;
  password: string;
}

export async function login(input: LoginInput): Promise<MeResponse> {
  const { tokenResponse } = await contract();
  const tokens = await apiRequest('/auth/token', {
    auth: false,
    form: { grant_type: 'password', username: input.username, password: input.password },
    schema: tokenResponse,
  });
  return startSession(tokens);
}

export const useLogin = () => useAction(login);

export async function register(input: RegisterInput): Promise<MeResponse> {
  const { registerResponse } = await contract();
  const answer = await apiRequest('/auth/register', { auth: false, json: input, schema: registerResponse });
  return startSession(answer);
}

export const useRegister = () => useAction(register);

const forgotPassword = (input: ForgotPasswordInput) =>
  statusOk(apiRequest('/auth/forgot-password', { auth: false, json: input }));
export const useForgotPassword = () => useAction(forgotPassword, { silent: false });

const resetPassword = (input: ResetPasswordInput) =>
  statusOk(apiRequest('/auth/reset-password', { auth: false, json: input }));
export const useResetPassword = () => useAction(resetPassword);

/** Revokes the refresh token; the local session ends even when the server cannot be reached. */
export async function logout(): Promise<void> {
  const token = getRefreshToken();
  try {
    if (token) await apiRequest('/auth/revoke', { auth: false, form: { token } });
  } catch (error) {
    if (!(error instanceof ApiError)) console.warn('revoke failed', error);
  } finally {
    clearCredentials();
  }
}
