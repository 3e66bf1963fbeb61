export { BannerCreatePage, BannerEditPage, BannerPage, BannersListPage } from './banners-pages.tsx';
