export { LandingCreatePage, LandingEditPage, LandingsListPage } from './landings-pages.tsx';
