import { CONTENT_MAX, type ContentBodies, type ContentSlug, locales } from '@adp/contract';
import { localeNames } from '@adp/i18n';
import { Alert, Button, Card, Group, Skeleton, Stack, Tabs, Text, Textarea } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { useContentPage, useContentPageEdit, useSaveContentPage } from './api/content-pages-queries.ts';
import { ContentText } from './components/content-text.tsx';

/** /faq */
export function FaqPage() {
  return <ContentPageScreen slug="faq" />;
}

/** /contacts */
export function ContactsPage() {
  return <ContentPageScreen slug="contacts" />;
}

function ContentPageScreen({ slug }: { slug: ContentSlug }) {
  const { t, i18n } = useTranslation('pages');
  const ability = useAppAbility();
  const canEdit = ability.can('update', 'System');
  const [editing, setEditing] = useState(false);
  const page = useContentPage(slug, i18n.language);
  return (
    <Stack gap="md">
      <PageHeader
        title={t(`${slug}.title`)}
        subtitle={t(`${slug}.subtitle`)}
        actions={
          canEdit && !editing ? (
            <Button leftSection={<IconEdit size={16} aria-hidden />} onClick={() => setEditing(true)}>
              {t('edit')}
            </Button>
          ) : null
        }
      />
      {editing ? (
        <ContentEditor slug={slug} onDone={() => setEditing(false)} />
      ) : page.isPending ? (
        <Skeleton height={240} radius="md" aria-busy="true" />
      ) : page.isError ? (
        <Alert color="red" title={t('errors:error_title')} role="alert">
          {t('errors:generic')}
        </Alert>
      ) : page.data.body ? (
        <Card padding="lg" radius="md" component="article" aria-label={t(`${slug}.title`)}>
          <Stack gap="md">
            {page.data.locale !== i18n.language ? (
              <Text c="dimmed" fz="sm">
                {t('fallback', { language: localeNames[page.data.locale] })}
              </Text>
            ) : null}
            <ContentText body={page.data.body} />
            {page.data.updated_at ? (
              <Text c="dimmed" fz="xs">
                {t('updated', { date: formatDateTime(page.data.updated_at) })}
              </Text>
            ) : null}
          </Stack>
        </Card>
      ) : (
        <Alert color="gray">{canEdit ? t('empty_admin') : t('empty')}</Alert>
      )}
    </Stack>
  );
}

/** The admin's form: one text per language, saved together. */
function ContentEditor({ slug, onDone }: { slug: ContentSlug; onDone: () => void }) {
  const { t, i18n } = useTranslation('pages');
  const stored = useContentPageEdit(slug, true);
  if (stored.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (stored.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:generic')}
      </Alert>
    );
  return (
    <EditorForm
      slug={slug}
      initial={stored.data.bodies}
      first={(locales as readonly string[]).includes(i18n.language) ? i18n.language : 'en'}
      onDone={onDone}
    />
  );
}

function EditorForm({
  slug,
  initial,
  first,
  onDone,
}: {
  slug: ContentSlug;
  initial: ContentBodies;
  first: string;
  onDone: () => void;
}) {
  const { t } = useTranslation('pages');
  const [bodies, setBodies] = useState<ContentBodies>(initial);
  const [tab, setTab] = useState<string | null>(first);
  const save = useSaveContentPage(slug);
  const tooLong = locales.filter((l) => bodies[l].length > CONTENT_MAX);
  const submit = async () => {
    if (tooLong.length) return;
    await save.mutateAsync(bodies);
    notifySuccess(t('saved'));
    onDone();
  };
  return (
    <Card
      padding="lg"
      radius="md"
      component="form"
      aria-label={t('edit_title')}
      onSubmit={(e) => {
        e.preventDefault();
        void submit().catch(() => undefined);
      }}
    >
      <Stack gap="md">
        <Text c="dimmed" fz="sm">
          {t('format_help')}
        </Text>
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            {locales.map((l) => (
              <Tabs.Tab key={l} value={l} c={bodies[l].trim() ? undefined : 'dimmed'}>
                {localeNames[l]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {locales.map((l) => (
            <Tabs.Panel key={l} value={l} pt="md">
              <Textarea
                label={t('text_in', { language: localeNames[l] })}
                description={t('chars', { count: bodies[l].length, max: CONTENT_MAX })}
                error={bodies[l].length > CONTENT_MAX ? t('too_long', { max: CONTENT_MAX }) : undefined}
                value={bodies[l]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setBodies((b) => ({ ...b, [l]: value }));
                }}
                autosize
                minRows={12}
                maxRows={30}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
            </Tabs.Panel>
          ))}
        </Tabs>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={tooLong.length > 0}>
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
