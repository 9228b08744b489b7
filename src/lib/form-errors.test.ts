import { zodResolver } from '@hookform/resolvers/zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/api-error';
import * as z from 'zod/mini';
import { contactCreateSchema } from '@/api/contacts';
import { applyServerErrors, withSentences } from './form-errors';

const long = `sommer-${'x'.repeat(60)}`;
/** A form's tags field as the new-contact form has it: the contract's tags schema checked directly. */
const tagsForm = z.object({ name: z.string(), tags: contactCreateSchema.shape.tags.def.innerType });

describe('a form names the tag that is too long (issue 34 point 9)', () => {
  it('from its own check of the values', async () => {
    const resolver = withSentences(zodResolver(tagsForm));
    const values = { name: 'Ann', tags: ['vip', long] };
    const result = await resolver(values as never, undefined, { fields: {}, shouldUseNativeValidation: false } as never);
    expect((result.errors as { tags?: { message?: string }[] }).tags?.[1]?.message).toBe(`The tag “${long}” is longer than 64 characters.`);
  });

  it('from the service\'s refusal of what it sent', async () => {
    const errors: Record<string, string> = {};
    const error = new ApiError({ status: 400, message: 'tags.0 must be at most 64 characters long', endpoint: 'POST /contacts', url: 'http://x/api/contacts', sent: { tags: [long] } });
    await applyServerErrors(error, ((name: string, { message }: { message: string }) => (errors[name] = message)) as never, ['tags']);
    expect(errors).toEqual({ tags: `The tag “${long}” is longer than 64 characters.` });
  });
});
