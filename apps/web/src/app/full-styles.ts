/** Every Mantine component's styles, loaded with the dashboard shell and dashboard pages (see base-styles.ts). */
import '@mantine/core/styles.layer.css';
