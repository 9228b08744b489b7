/**
 * The composer's list of media image URLs (issue 7): add, remove and reorder (buttons, so it works from the
 * keyboard), each with a small preview of the image. At most 20 images (the contract's cap).
 */
import { ActionIcon, Box, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { type Control, type FieldErrors, type UseFormRegister, useFieldArray, useWatch } from 'react-hook-form';
import { isHttpUrl } from '@/embed/post-view';
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';
import { type ComposerValues, MEDIA_MAX } from './composer-form';

const icon = { width: 16, height: 16, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const, 'aria-hidden': true };

/** A thumbnail of an image URL, or a note when there is nothing to show yet or it cannot be loaded. */
function Thumbnail({ url, label }: { url: string; label: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const t = useT();
  const valid = isHttpUrl(url.trim());
  const broken = failed === url;
  return (
    <Box w={72} h={54} style={{ flex: 'none', borderRadius: 6, overflow: 'hidden', background: 'var(--mantine-color-default-hover)', display: 'grid', placeItems: 'center' }}>
      {valid && !broken ? (
        <img src={url.trim()} alt={label} width={72} height={54} style={{ objectFit: 'cover', display: 'block' }} onError={() => setFailed(url)} referrerPolicy="no-referrer" />
      ) : (
        <Text size="xs" c="dimmed" ta="center" px={4}>
          {broken ? t('posts.cannotLoad') : t('posts.noImage')}
        </Text>
      )}
    </Box>
  );
}

type Props = { control: Control<ComposerValues>; register: UseFormRegister<ComposerValues>; errors: FieldErrors<ComposerValues> };

/** The media image URLs of the composer's form (`mediaImageUrls`), as an editable, reorderable list with previews. */
export function MediaField({ control, register, errors }: Props) {
  const { fields, append, remove, move } = useFieldArray({ control, name: 'mediaImageUrls' });
  const urls = useWatch({ control, name: 'mediaImageUrls' });
  const t = useT();
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} id="media-label">
        {t('posts.mediaImages')}
      </Text>
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('posts.noMedia')}
        </Text>
      ) : (
        <Stack gap="xs" role="list" aria-labelledby="media-label">
          {fields.map((field, index) => {
            const n = index + 1;
            return (
              <Group key={field.id} gap="xs" align="flex-start" wrap="nowrap" role="listitem">
                <Thumbnail url={urls?.[index]?.url ?? ''} label={t('posts.mediaPreview', { n })} />
                <TextInput
                  label={t('posts.mediaUrl', { n })}
                  placeholder={t('posts.urlPlaceholder')}
                  style={{ flex: 1 }}
                  {...register(`mediaImageUrls.${index}.url`)}
                  error={errors.mediaImageUrls?.[index]?.url?.message}
                />
                <Group gap={4} wrap="nowrap" mt={26}>
                  <ActionIcon variant="default" size="lg" aria-label={t('posts.mediaUp', { n })} disabled={index === 0} onClick={() => move(index, index - 1)}>
                    <svg {...icon}>
                      <path d="m6 15 6-6 6 6" />
                    </svg>
                  </ActionIcon>
                  <ActionIcon variant="default" size="lg" aria-label={t('posts.mediaDown', { n })} disabled={index === fields.length - 1} onClick={() => move(index, index + 1)}>
                    <svg {...icon}>
                      <path d="m6 9 6 6 6-6" />
                    </svg>
                  </ActionIcon>
                  <ActionIcon variant="default" size="lg" aria-label={t('posts.mediaRemove', { n })} onClick={() => remove(index)}>
                    <svg {...icon}>
                      <path d="M18 6 6 18M6 6l12 12" />
                    </svg>
                  </ActionIcon>
                </Group>
              </Group>
            );
          })}
        </Stack>
      )}
      {errors.mediaImageUrls?.message || errors.mediaImageUrls?.root?.message ? (
        <Text size="sm" c="red.8" role="alert">
          {errors.mediaImageUrls.message ?? errors.mediaImageUrls.root?.message}
        </Text>
      ) : null}
      <Group>
        <Button variant="default" size="xs" disabled={fields.length >= MEDIA_MAX} onClick={() => append({ url: '' }, { shouldFocus: true })}>
          {t('posts.addMedia')}
        </Button>
        <Text size="xs" c="dimmed">
          {t('posts.mediaCount', { count: formatNumber(fields.length), max: formatNumber(MEDIA_MAX) })}
        </Text>
      </Group>
    </Stack>
  );
}
