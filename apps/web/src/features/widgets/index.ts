export { SiteWidgetsPage, WidgetCreatePage, WidgetEditPage, WidgetPage } from './widgets-pages.tsx';
