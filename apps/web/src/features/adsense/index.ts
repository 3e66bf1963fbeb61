export { AdsenseIncomePage, AdsenseIncomesPage } from './adsense-pages.tsx';
