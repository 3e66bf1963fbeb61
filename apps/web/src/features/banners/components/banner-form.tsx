import {
  type Banner,
  bannerImageFormats,
  bannerInput,
  defaultTargeting,
  status as statusSchema,
  type Targeting,
} from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Card,
  FileButton,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPhoto, IconVideo } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormSelect } from '../../../components/form-fields.tsx';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { translateFieldError, validationErrorMap } from '../../../lib/validation.ts';
import { TargetingEditor } from './targeting-editor.tsx';

export const TEXT_MAX = 60;

export const bannerFormSchema = bannerInput.omit({ campaign_id: true });
export type BannerFormValues = z.input<typeof bannerFormSchema>;
export type BannerFormOutput = z.output<typeof bannerFormSchema>;
export interface BannerMedia {
  image: File | null;
  video: File | null;
}

function Section({
  title,
  children,
  description,
}: {
  title: string;
  children: ReactNode;
  description?: string;
}) {
  return (
    <Card padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg">
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" fz="sm">
              {description}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

/** A text field that counts its characters against the 60 of SPEC.md. */
function CountedInput({
  label,
  value,
  onChange,
  onBlur,
  error,
  required,
  name,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  onBlur: () => void;
  error?: string;
  required?: boolean;
  name: string;
}) {
  const { t } = useTranslation('banners');
  const length = value.length;
  return (
    <TextInput
      name={name}
      label={label}
      value={value}
      required={required}
      maxLength={TEXT_MAX}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={onBlur}
      error={error}
      description={
        <Text span fz="xs" c={length >= TEXT_MAX ? 'red' : 'dimmed'} data-testid={`${name}-counter`}>
          {t('form.counter', { count: length, max: TEXT_MAX })}
        </Text>
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}

/** The resized formats of an uploaded image, as widgets will show them. */
export function ImageFormats({ images }: { images: Banner['images'] }) {
  const { t } = useTranslation('banners');
  if (!images) return null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {(Object.keys(bannerImageFormats) as (keyof typeof bannerImageFormats)[]).map((format) => {
        const [w, h] = bannerImageFormats[format];
        const src = images[format];
        return src ? (
          <Stack key={format} gap={4}>
            <Image
              src={src}
              alt={t('form.format_alt', { format: t(`formats.${format}`) })}
              radius="sm"
              fit="contain"
              mah={140}
            />
            <Text fz="xs" c="dimmed">
              {t(`formats.${format}`)} · {w}×{h}
            </Text>
          </Stack>
        ) : null;
      })}
    </SimpleGrid>
  );
}

export function BannerForm({
  banner,
  defaults,
  userId,
  onSubmit,
  submitLabel,
  onUpload,
  onRemoveVideo,
  ipImport,
}: {
  banner?: Banner;
  /** A creative to start from (the odd /{bannerId}/create route of SPEC.md). */
  defaults?: Partial<BannerFormValues>;
  userId: string;
  onSubmit: (input: BannerFormOutput, media: BannerMedia) => Promise<unknown>;
  submitLabel: string;
  /** Uploads right away on a saved creative; before it exists the file waits for the submit. */
  onUpload?: (file: File, kind: 'image' | 'video') => Promise<unknown>;
  /** Takes a saved creative's video away (its image stays). */
  onRemoveVideo?: () => Promise<unknown>;
  ipImport?: ReactNode;
}) {
  const { t } = useTranslation('banners');
  const [image, setImage] = useState<File | null>(null);
  const [video, setVideo] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState<'image' | 'video' | null>(null);
  const [removingVideo, setRemovingVideo] = useState(false);
  const form = useForm<BannerFormValues, unknown, BannerFormOutput>({
    resolver: zodResolver(bannerFormSchema, { error: validationErrorMap }),
    defaultValues: banner
      ? {
          title: banner.title,
          text: banner.text,
          url: banner.url,
          status: banner.status,
          targeting: banner.targeting,
        }
      : {
          title: '',
          text: '',
          url: '',
          status: 'active',
          ...defaults,
          targeting: bannerFormSchema.shape.targeting.parse(defaults?.targeting ?? undefined),
        },
  });
  const { control } = form;
  const targeting = useWatch({ control, name: 'targeting' }) as Targeting;

  useEffect(() => {
    if (!image) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const pick = async (file: File | null, kind: 'image' | 'video') => {
    if (!file) return;
    if (onUpload) {
      setUploading(kind);
      try {
        await onUpload(file, kind);
      } catch {
        // the toast says why
      } finally {
        setUploading(null);
      }
      return;
    }
    if (kind === 'image') setImage(file);
    else setVideo(file);
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values, { image, video });
    } catch (error) {
      // ids the server refuses (another owner's pixel, a site that is not live) show on their dimension
      applyServerErrors(error, form.setError, [
        'title',
        'text',
        'url',
        'status',
        'targeting',
        ...(Object.keys(defaultTargeting()).map((d) => `targeting.${d}`) as `targeting.${keyof Targeting}`[]),
        'file',
      ]);
    }
  });

  const targetingErrors: Partial<Record<keyof Targeting, string>> = {};
  const raw = form.formState.errors.targeting as Record<string, unknown> | undefined;
  if (raw)
    for (const key of Object.keys(raw)) {
      const first = JSON.stringify(raw[key]).match(/"message":"((?:[^"\\]|\\.)*)"/)?.[1];
      if (first)
        targetingErrors[key as keyof Targeting] =
          translateFieldError(JSON.parse(`"${first}"`), `targeting.${key}`, t) ?? undefined;
    }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Section title={t('form.content')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={control}
              name="title"
              render={({ field, fieldState }) => (
                <CountedInput
                  name="title"
                  label={t('fields:title')}
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  required
                  error={translateFieldError(fieldState.error?.message, 'title', t)}
                />
              )}
            />
            <Controller
              control={control}
              name="text"
              render={({ field, fieldState }) => (
                <CountedInput
                  name="text"
                  label={t('fields:text')}
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={translateFieldError(fieldState.error?.message, 'text', t)}
                />
              )}
            />
            <Controller
              control={control}
              name="url"
              render={({ field, fieldState }) => (
                <TextInput
                  {...field}
                  value={field.value ?? ''}
                  type="url"
                  label={t('form.target_url')}
                  placeholder="https://example.com/landing?utm_source=adp"
                  required
                  error={translateFieldError(fieldState.error?.message, 'url', t)}
                />
              )}
            />
            <FormSelect
              control={control}
              name="status"
              data={statusSchema.options.map((value) => ({ value, label: t(`status.${value}`) }))}
              allowDeselect={false}
            />
          </SimpleGrid>
        </Section>

        <Section title={t('form.media')} description={t('form.media_hint')}>
          <Group gap="sm">
            <FileButton
              onChange={(f) => void pick(f, 'image')}
              accept="image/png,image/jpeg,image/webp,image/gif"
            >
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhoto size={16} aria-hidden />}
                  loading={uploading === 'image'}
                >
                  {t('form.upload_image')}
                </Button>
              )}
            </FileButton>
            <FileButton onChange={(f) => void pick(f, 'video')} accept="video/mp4,video/webm">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconVideo size={16} aria-hidden />}
                  loading={uploading === 'video'}
                >
                  {t('form.upload_video')}
                </Button>
              )}
            </FileButton>
          </Group>
          {image ? (
            <Group gap="sm">
              {preview ? (
                <Image src={preview} alt={t('form.image_preview')} h={100} w="auto" radius="sm" />
              ) : null}
              <Text fz="sm">{t('form.image_pending', { name: image.name })}</Text>
            </Group>
          ) : null}
          {video ? <Text fz="sm">{t('form.video_pending', { name: video.name })}</Text> : null}
          {banner?.images ? <ImageFormats images={banner.images} /> : null}
          {banner?.video ? (
            <Group gap="sm" align="flex-end">
              {/* biome-ignore lint/a11y/useMediaCaption: advertisers' creatives come without captions */}
              <video
                src={banner.video}
                controls
                style={{ maxWidth: 320, borderRadius: 8 }}
                aria-label={t('form.video')}
              />
              {onRemoveVideo ? (
                <Button
                  variant="subtle"
                  color="red"
                  loading={removingVideo}
                  onClick={async () => {
                    setRemovingVideo(true);
                    try {
                      await onRemoveVideo();
                    } catch {
                      // the toast says why
                    } finally {
                      setRemovingVideo(false);
                    }
                  }}
                >
                  {t('form.remove_video')}
                </Button>
              ) : null}
            </Group>
          ) : null}
        </Section>

        <Section title={t('targeting.title')} description={t('targeting.hint')}>
          <TargetingEditor
            value={targeting}
            onChange={(next) => form.setValue('targeting', next, { shouldDirty: true })}
            userId={userId}
            ipImport={ipImport}
            errors={targetingErrors}
          />
        </Section>

        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
