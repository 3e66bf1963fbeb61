/**
 * The Mantine styles of the first screen (guard, login and password pages, locale switcher, error
 * and loading states), in Mantine's layer so the app's own CSS wins whatever the load order.
 * Dashboard pages add the full stylesheet (full-styles.ts); its duplicates of these rules are harmless.
 * Order: baseline first, then the components in the order of Mantine's full stylesheet (Text before
 * Anchor, which is a Text, or Text's reset would undo Anchor's underline). The colour variables come from
 * MantineProvider (deduplicateCssVariables off), not from default-css-variables.css. Components of a
 * single page import their own styles (auth-fields.tsx, locale-menu.tsx).
 */
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Title.layer.css';
import './layouts/app-shell.css';
