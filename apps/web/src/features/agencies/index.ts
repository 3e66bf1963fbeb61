export { AgenciesPage, UserAgenciesPage } from './agencies-list-pages.tsx';
export { AgencyCreatePage, AgencyEditPage } from './agency-form-pages.tsx';
export { AgencyPage } from './agency-page.tsx';
export { MemberCreatePage, MemberEditPage } from './member-pages.tsx';
