export { SystemPage } from './system-page.tsx';
