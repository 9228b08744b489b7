import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Scope } from '@/api/scopes';

/** Shown instead of a page the key's scopes don't allow (issue 4): names the scope needed and how to get it. */
export function MissingScope({ scope, what }: { scope: Scope; what: string }) {
  return (
    <Alert color="yellow" title={`This key cannot open ${what}`} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {what} needs the scope <code>{scope}</code>, which the saved key for this workspace does not have. Ask for a key
          with that scope and add it on the connect page.
        </Text>
        <Button component={Link} to="/connect" variant="light" size="xs">
          Manage keys
        </Button>
      </Stack>
    </Alert>
  );
}
