export { UserPage } from './user-page.tsx';
export { UsersListPage } from './users-list-page.tsx';
