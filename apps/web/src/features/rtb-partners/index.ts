export { RtbPartnersPage } from './rtb-partners-page.tsx';
