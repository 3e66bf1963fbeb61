/** The dashboard's own session queries; the login and password pages use session.ts alone. */
export { meQuery, useMe } from '../../../lib/me-query.ts';
export { logout } from './session.ts';
