export { DecodeUrlPage } from './decode-url-page.tsx';
