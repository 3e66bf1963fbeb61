import { Navigate, useParams } from 'react-router';
import { useAuth } from '../lib/ability.tsx';

/**
 * SPEC.md section 2 names some pages under two paths: "/pixels; /users/{userId}/pixels; /create; /{id};
 * /{id}/edit" and "/agencies; /users/{userId}/agencies; /create; /{id}; /{id}/edit". The app keeps one page
 * of each; the other path leads to it.
 */

/** /pixels/create: the signed-in user's own pixel form. */
export function PixelCreateRedirect() {
  const { userId } = useAuth();
  return <Navigate to={userId ? `/users/${userId}/pixels/create` : '/'} replace />;
}

/** /users/{userId}/agencies/create, /{id} and /{id}/edit: the agency pages, which are not kept per user. */
export function UserAgencyRedirect() {
  const { id, '*': rest } = useParams();
  const tail = rest ? `/${rest}` : '';
  return <Navigate to={id ? `/agencies/${id}${tail}` : '/agencies/create'} replace />;
}
