export { CurrenciesPage } from './currencies-page.tsx';
