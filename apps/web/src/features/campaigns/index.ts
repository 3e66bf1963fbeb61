export { CampaignCreatePage, CampaignEditPage } from './campaign-edit-pages.tsx';
export { CampaignPage, CampaignPaymentsPage } from './campaign-page.tsx';
export { CampaignsListPage } from './campaigns-list-page.tsx';
