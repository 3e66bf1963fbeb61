/** Stable error codes of the API; the dashboard translates each under `errors.<code>`. */
export const errorCodes = [
  'generic',
  'not_found',
  'forbidden',
  'unauthorized',
  'invalid_grant',
  'too_many_requests',
  'payload_too_large',
  'unsupported_media_type',
  'bad_request',
  'email_taken',
  'invalid_reset_token',
  'current_password_wrong',
  'no_rights',
] as const;
export type ErrorCode = (typeof errorCodes)[number];
