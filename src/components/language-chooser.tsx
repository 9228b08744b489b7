/**
 * The language chooser (issue 23 point 2), in the workspace header and on /connect: a pair of toggle buttons,
 * each named in its own language (`lang` set, so a screen reader speaks it right). Choosing one switches every text
 * at once (its catalogs are fetched first) and remembers the choice on this device.
 */
import { Button, Group } from '@mantine/core';
import { activateLocale, currentLocale } from '@/i18n/i18n';
import type { Locale } from '@/i18n/locale';
import { useT } from '@/i18n/react';

/** Each language's name in itself: not translated, on purpose. */
const NAMES: Record<Locale, string> = { nb: 'Norsk', en: 'English' };

export function LanguageChooser({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const t = useT();
  const shown = currentLocale();
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={t('common.language')}>
      {(Object.keys(NAMES) as Locale[]).map((locale) => (
        <Button
          key={locale}
          size={size}
          variant={locale === shown ? 'filled' : 'default'}
          lang={locale}
          aria-pressed={locale === shown}
          onClick={() => void activateLocale(locale, { remember: true })}
        >
          {NAMES[locale]}
        </Button>
      ))}
    </Group>
  );
}
