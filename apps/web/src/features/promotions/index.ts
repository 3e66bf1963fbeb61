export {
  PromotionCreatePage,
  PromotionEditPage,
  PromotionPageCreatePage,
  PromotionPageEditPage,
  PromotionPageViewPage,
  PromotionViewPage,
  SitePromotionsPage,
} from './promotions-pages.tsx';
