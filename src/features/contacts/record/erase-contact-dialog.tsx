/**
 * The confirmation of a contact's erasure (issue 22 point 7; `DELETE /contacts/{id}`, docs/decisions.md section 10): it
 * names what is erased and that it is final, and the button works only once the person's name (else the email,
 * phone or id the drawer shows) is typed exactly. Waits for the service; a refusal shows as a sentence with its
 * details.
 */
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Contact } from '@/api/contacts';
import { ErrorMessage } from '@/components/error-message';
import { showSaved } from '@/components/upsert-drawer';
import { useT } from '@/i18n/react';
import { useEraseContact } from '../mutations';

/** What the person must type to erase `contact`: its name, else its email, phone or id. */
export const erasureWord = (contact: Contact) => contact.name?.trim() || contact.email || contact.phone || contact.id;

export function EraseContactDialog({ contact, onCancel, onErased }: { contact: Contact; onCancel: () => void; onErased: () => void }) {
  const erase = useEraseContact();
  const t = useT();
  const word = erasureWord(contact);
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === word;
  return (
    <Modal opened onClose={onCancel} title={t('contact-record.eraseTitle', { name: word })} closeButtonProps={{ 'aria-label': t('contact-record.closeErase') }} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!matches) return;
          erase.mutate(contact.id, {
            onSuccess: () => {
              showSaved(t('contact-record.erased', { name: word }));
              onErased();
            },
          });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('contact-record.eraseWhat')}</Text>
          <Text size="sm" fw={700}>
            {t('contact-record.eraseFinal')}
          </Text>
          <TextInput label={t('contact-record.eraseConfirmLabel', { name: word })} description={t('contact-record.eraseConfirmDescription')} value={typed} onChange={(event) => setTyped(event.currentTarget.value)} autoComplete="off" data-autofocus />
          {erase.isError ? (
            <Alert color="red" role="alert" title={t('contact-record.eraseFailed')}>
              <ErrorMessage error={erase.error} />
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t('contact-record.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={!matches} loading={erase.isPending}>
              {t('contact-record.eraseButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
