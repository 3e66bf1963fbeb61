export { PixelCreatePage, PixelEditPage, PixelPage, PixelsListPage } from './pixels-pages.tsx';
