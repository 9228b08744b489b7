/** "Import CSV" on the products page (issue 6): placeholder until the import dialog lands. */
import { Button } from '@mantine/core';

export function ImportProductsButton() {
  return (
    <Button variant="default" disabled>
      Import CSV
    </Button>
  );
}
