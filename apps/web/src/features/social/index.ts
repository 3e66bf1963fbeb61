export { SiteSocialGroupsPage, SocialGroupCreatePage, SocialGroupEditPage } from './social-pages.tsx';
