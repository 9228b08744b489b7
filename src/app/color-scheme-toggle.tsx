/**
 * The light/dark toggle of the header (issue 4), remembered by Mantine's color scheme manager. Its own module so
 * the shell shows it at once while the header's popover tools load at the first interaction (issue 16).
 */
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { MoonIcon, SunIcon } from '@/components/icons';
import { useT } from '@/i18n/react';

export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const t = useT();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(next)} aria-label={next === 'dark' ? t('common.toDark') : t('common.toLight')}>
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}
