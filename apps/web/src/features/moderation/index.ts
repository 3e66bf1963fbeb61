export { ModerationPage } from './moderation-page.tsx';
