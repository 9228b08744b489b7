import { WithArea, useT } from '@/i18n/react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Scope } from '@/api/scopes';

/**
 * Shown instead of a page the key's scopes don't allow (issue 4): names the scope needed and how to get it. Its
 * texts are in the `sentences` catalog, fetched when it is shown (issue 23).
 */
export function MissingScope({ scope, what }: { scope: Scope; what: string }) {
  return <WithArea area="sentences" render={() => <Missing scope={scope} what={what} />} />;
}

function Missing({ scope, what }: { scope: Scope; what: string }) {
  const t = useT();
  const [before, after] = t('sentences.scopeMissing', { what, scope: '\u0000' }).split('\u0000');
  return (
    <Alert color="yellow" title={t('sentences.cannotOpen', { what })} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {before}
          <code>{scope}</code>
          {after}
        </Text>
        <Button component={Link} to="/connect" variant="light" size="xs">
          {t('sentences.manageKeys')}
        </Button>
      </Stack>
    </Alert>
  );
}
