/**
 * Contacts' mutations (issue 5), in their own module so the list's first paint does not load them. Tag edits are
 * optimistic with rollback; creating a contact and notification settings wait for the server.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactList } from '@/api/client';
import type { Contact, ContactCreate } from '@/api/contacts';
import type { ContactPatch } from '@/api/extensions';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { noteOwnWrite } from '@/lib/live/live-store';
import { contactQueries } from './queries';

/** Applies `change` to the contact `id` wherever a cached list of the workspace, or its look-up by id, holds it. */
function updateCachedContact(queryClient: ReturnType<typeof useQueryClient>, workspaceId: string, id: string, change: (contact: Contact) => Contact) {
  queryClient.setQueriesData<ContactList>({ queryKey: contactQueries.lists(workspaceId) }, (page) =>
    page ? { ...page, items: page.items.map((contact) => (contact.id === id ? change(contact) : contact)) } : page,
  );
  queryClient.setQueryData<Contact | null>([...contactQueries.details(workspaceId), id], (contact) => (contact ? change(contact) : contact));
}

/** Adds and removes tags on one contact, optimistically: the lists show the change at once and roll back on refusal. */
export function usePatchContactTags() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { contactId: string; tagsToAdd?: string[]; tagsToRemove?: string[] }) => {
      noteOwnWrite(workspaceId, [input.contactId]);
      return api.patchContactTags(input.contactId, { tagsToAdd: input.tagsToAdd, tagsToRemove: input.tagsToRemove });
    },
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: contactQueries.lists(workspaceId) });
      const snapshot = queryClient.getQueriesData<ContactList>({ queryKey: contactQueries.lists(workspaceId) });
      updateCachedContact(queryClient, workspaceId, input.contactId, (contact) => ({
        ...contact,
        tags: [...contact.tags.filter((tag) => !input.tagsToRemove?.includes(tag)), ...(input.tagsToAdd ?? []).filter((tag) => !contact.tags.includes(tag))],
      }));
      return { snapshot };
    },
    onError: (_error, _input, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactQueries.all(workspaceId) }),
  });
}

/** Creates a contact; waits for the server, then refreshes the lists and tag counts. */
export function useCreateContact() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactCreate) => api.createContact(body),
    onSuccess: (created) => {
      noteOwnWrite(workspaceId, [created.id]); // its change event is not "a new contact" made elsewhere
      return queryClient.invalidateQueries({ queryKey: contactQueries.all(workspaceId) });
    },
  });
}

/** Updates a contact's notification settings with the workspace's Basic credentials (endpoint 6). */
export function useNotificationSettings() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { contactId: string; email?: boolean; sms?: boolean }) => {
      noteOwnWrite(workspaceId, [input.contactId]);
      return api.patchNotificationSettings(input.contactId, { email: input.email, sms: input.sms });
    },
    onSuccess: (contact, input) => {
      updateCachedContact(queryClient, workspaceId, input.contactId, (cached) => ({
        ...cached,
        state: contact.state,
        notificationSettings: {
          email: input.email ?? cached.notificationSettings.email,
          sms: input.sms ?? cached.notificationSettings.sms,
        },
      }));
      return queryClient.invalidateQueries({ queryKey: contactQueries.lists(workspaceId) });
    },
  });
}

/**
 * Corrects a contact (`PATCH /contacts/{id}`, our extension): waits for the server, puts the answer in the cached
 * lists, then refreshes them. One Idempotency-Key per correction, so React Query's retry of a 429 applies it once.
 */
export function useUpdateContact() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { contactId: string; patch: ContactPatch }) => {
      noteOwnWrite(workspaceId, [input.contactId]);
      return api.updateContact(input.contactId, input.patch, { idempotencyKey: crypto.randomUUID() });
    },
    onSuccess: (contact, input) => {
      updateCachedContact(queryClient, workspaceId, input.contactId, () => contact);
      return queryClient.invalidateQueries({ queryKey: contactQueries.all(workspaceId) });
    },
  });
}

/** Erases a contact (`DELETE /contacts/{id}`, our extension): waits for the server, drops it from every cached list. */
export function useEraseContact() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) => api.eraseContact(contactId),
    onSuccess: (_nothing, contactId) => {
      queryClient.setQueriesData<ContactList>({ queryKey: contactQueries.lists(workspaceId) }, (page) =>
        page ? { ...page, items: page.items.filter((contact) => contact.id !== contactId) } : page,
      );
      queryClient.removeQueries({ queryKey: [...contactQueries.details(workspaceId), contactId] });
      return queryClient.invalidateQueries({ queryKey: contactQueries.all(workspaceId) });
    },
  });
}
