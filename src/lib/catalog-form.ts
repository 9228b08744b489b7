/**
 * What the product and collection upsert forms share (issue 6; docs/decisions.md section 7): the fields both requests
 * have (title, handle, bodyHtml, source, externalId, customProperties), their starting values from a listed
 * record, their form schema over the contract's field schemas, and the handle suggested from the title.
 *
 * The handle: while it is the suggestion (`handleSuggested`), typing a title rewrites it as `slugify(title)`, and
 * a create leaves it out of the request, so the service derives the same slug and adds `-2`, `-3` when it is
 * taken. A handle the user typed is sent as typed (a taken one is a 409 on the handle field). An edit never
 * rewrites the record's handle.
 */
import type { ChangeEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import * as z from 'zod/mini';
import { handleSchema } from '@/api/catalog';
import { slugify } from '@/api/slug';
import { keyValueField, optionalText, requiredText } from './form-fields';
import { type KeyValueRow, rowsOf } from './key-value';

/** The form values of the shared fields: what the inputs hold. */
export type CatalogFormValues = {
  title: string;
  handle: string;
  /** True while the handle is the one suggested from the title (a form flag, never sent). */
  handleSuggested: boolean;
  bodyHtml: string;
  source: string;
  externalId: string;
  customProperties: KeyValueRow[];
};

/** The listed record an edit starts from (a product or a collection). */
export type CatalogRecord = {
  id: string;
  title: string | null;
  handle: string | null;
  bodyHtml: string | null;
  source?: string | null | undefined;
  externalId: string | null;
  customProperties?: Record<string, unknown> | null | undefined;
};

/** Starting values: the record's (an edit), or blanks with the handle to be suggested (a create). */
export function catalogFormValues(record: CatalogRecord | null | undefined): CatalogFormValues {
  return {
    title: record?.title ?? '',
    handle: record?.handle ?? '',
    handleSuggested: !record,
    bodyHtml: record?.bodyHtml ?? '',
    source: record?.source ?? '',
    externalId: record?.externalId ?? '',
    customProperties: rowsOf(record?.customProperties),
  };
}

/** The contract's field schemas the shared fields check against (both upsert schemas have these shapes). */
type Wire = {
  title: z.ZodMiniType<string, string> | z.ZodMiniOptional<z.ZodMiniType<string, string>>;
  externalId: z.ZodMiniOptional<z.ZodMiniType<string, string>>;
  bodyHtml: z.ZodMiniOptional<z.ZodMiniType<string, string>>;
  source: z.ZodMiniOptional<z.ZodMiniType<string, string>>;
  customProperties: z.ZodMiniOptional<z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>>;
};

/**
 * The zod shape of the shared fields for `wire` (the contract's upsert shape) and, on an edit, the record:
 * the title is required (a create needs it, and the contract refuses an empty one); free text fields clear with
 * `''`; the handle and externalId cannot be emptied once set. `needsTitle` is the missing-title message, a sentence
 * in the language shown (the caller's catalog: `A product needs a title.`), which the form shows as it is.
 */
export function catalogFormFields(wire: Wire, record: CatalogRecord | null | undefined, needsTitle: string) {
  const title = (wire.title instanceof z.ZodMiniOptional ? wire.title.def.innerType : wire.title) as z.ZodMiniType<string, string>;
  return {
    title: requiredText(title, needsTitle),
    handle: optionalText(handleSchema, { was: record?.handle }),
    handleSuggested: z.boolean(),
    bodyHtml: optionalText(wire.bodyHtml.def.innerType, { was: record?.bodyHtml, clearable: true, keepSpaces: true }),
    source: optionalText(wire.source.def.innerType, { was: record?.source, clearable: true }),
    externalId: optionalText(wire.externalId.def.innerType, { was: record?.externalId }),
    customProperties: keyValueField(wire.customProperties.def.innerType, { was: record?.customProperties }),
  };
}

/** The shared part of the request: the record's `id` on an edit, and the handle only when it is not a create's suggestion. */
export function catalogUpsertBase<Values extends { handle?: string | undefined; handleSuggested: boolean }>(values: Values, record: { id: string } | null | undefined) {
  const { handleSuggested, handle, ...rest } = values;
  return { ...rest, id: record?.id, handle: !record && handleSuggested ? undefined : handle };
}

/**
 * `register` props for the title and handle inputs of `form`, keeping the suggestion: typing a title while the
 * handle is suggested sets it to `slugify(title)`; typing in the handle makes it the user's own, and emptying it
 * hands it back to the suggestion.
 */
export function suggestedHandle<Values extends CatalogFormValues>(form: Pick<UseFormReturn<Values>, 'register' | 'getValues' | 'setValue'>) {
  const shared = form as unknown as UseFormReturn<CatalogFormValues>;
  return {
    title: shared.register('title', {
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        if (shared.getValues('handleSuggested')) shared.setValue('handle', slugify(event.target.value, ''), { shouldDirty: true });
      },
    }),
    handle: shared.register('handle', {
      onChange: (event: ChangeEvent<HTMLInputElement>) => shared.setValue('handleSuggested', event.target.value === ''),
    }),
  };
}
