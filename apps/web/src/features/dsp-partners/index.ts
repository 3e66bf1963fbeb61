export { DspPartnerStatsPage } from './dsp-partner-stats-page.tsx';
export {
  DspPartnerCreatePage,
  DspPartnerEditPage,
  DspPartnerLogsPage,
  DspPartnersListPage,
  DspPartnerViewPage,
} from './dsp-partners-pages.tsx';
