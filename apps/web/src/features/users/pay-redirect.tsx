import { Navigate, useParams } from 'react-router';

/** SPEC.md section 2: /users/{userId}/pay always redirects to the user page. */
export function UserPayRedirect() {
  const { userId = '' } = useParams();
  return <Navigate to={`/users/${userId}`} replace />;
}
