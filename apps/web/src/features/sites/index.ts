export { SiteCreatePage, SiteEditPage } from './site-edit-pages.tsx';
export { SitePage, SiteV2Page } from './site-page.tsx';
export { SitesListPage } from './sites-list-page.tsx';
