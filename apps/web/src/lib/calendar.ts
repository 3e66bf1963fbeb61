// What every calendar of the dashboard (date fields, the statistics' range picker, promotion dates) needs
// once: the styles of @mantine/dates and dayjs's month and weekday names in the dashboard's languages
// (English is dayjs's own). Imported for its effects by the components that show a calendar.
import '@mantine/dates/styles.css';
import 'dayjs/locale/de';
import 'dayjs/locale/fr';
import 'dayjs/locale/pt';
import 'dayjs/locale/ru';
import 'dayjs/locale/uk';
