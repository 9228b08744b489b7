import { afterAll, describe, expect, it } from 'vitest';
import { activateLocale } from '@/i18n/i18n';
import { postRequestSchema } from '@/api/posts';
import { COMPOSER_DEFAULTS, type ComposerValues, composerErrorMap, composerSchema, formFieldOf, isBlank, localToUtcIso, parseDraft, serverErrorFields, toPostRequest } from './composer-form';

const values = (patch: Partial<ComposerValues>): ComposerValues => ({ ...structuredClone(COMPOSER_DEFAULTS), ...patch });
const issuesOf = (input: ComposerValues) => {
  const result = composerSchema.safeParse(input, { error: composerErrorMap });
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('composer form', () => {
  it('has a default for every field, and a fresh form is blank', () => {
    expect(isBlank(COMPOSER_DEFAULTS)).toBe(true);
    expect(Object.keys(COMPOSER_DEFAULTS).sort()).toEqual([...Object.keys(postRequestSchema.shape), 'publishDate'].filter((k, i, a) => a.indexOf(k) === i).sort());
  });

  it('sends only what is given: blanks left out, objects only when filled, recipients only when named', () => {
    expect(toPostRequest(values({ header: '  Hello ', text: 'Body' }))).toEqual({ action: 'publish', header: 'Hello', text: 'Body', notificationSettings: { email: false, sms: false } });
    const full = toPostRequest(
      values({
        action: 'suggest',
        header: 'H',
        mediaImageUrls: [{ url: 'https://a.example/1.png' }, { url: ' https://a.example/2.png ' }],
        ctaLink: { url: 'https://example.com', title: 'T', description: '', imageUrl: '' },
        button: { text: 'Go', url: 'https://example.com/go' },
        author: { name: 'Ann', imageUrl: '' },
        recipients: { tags: ['vip'], contacts: [{ id: 'c1', label: 'Ann' }] },
        notificationSettings: { email: true, sms: false },
      }),
    );
    expect(full).toEqual({
      action: 'suggest',
      header: 'H',
      mediaImageUrls: ['https://a.example/1.png', 'https://a.example/2.png'],
      ctaLink: { url: 'https://example.com', title: 'T' },
      button: { text: 'Go', url: 'https://example.com/go' },
      author: { name: 'Ann' },
      recipients: { tags: ['vip'], contactIds: ['c1'] },
      notificationSettings: { email: true, sms: false },
    });
    expect(postRequestSchema.safeParse(full).success).toBe(true);
  });

  it('converts the local schedule time to UTC and never sends a time with publish', () => {
    const local = '2031-07-01 12:30:15';
    const utc = new Date(2031, 6, 1, 12, 30, 15).toISOString();
    expect(localToUtcIso(local)).toBe(utc);
    expect(localToUtcIso('')).toBeNull();
    expect(toPostRequest(values({ action: 'schedule', header: 'x', publishDate: local })).publishDate).toBe(utc);
    expect(toPostRequest(values({ action: 'publish', header: 'x', publishDate: local })).publishDate).toBeUndefined();
  });

  it.each<[string, Partial<ComposerValues>, string[]]>([
    ['a post without content', {}, ['text: A post needs content: write a text or a header, or add an image.']],
    ['a schedule without a time', { action: 'schedule', header: 'x' }, ['publishDate: Pick the date and time to publish at.']],
    ['a schedule in the past', { action: 'schedule', header: 'x', publishDate: '2001-01-01 10:00:00' }, ['publishDate: The publish time must be in the future: this time has already passed.']],
    ['a bad image URL', { header: 'x', imageUrl: 'ftp://x' }, ['imageUrl: must be an absolute http(s) URL']],
    ['a bad media URL', { header: 'x', mediaImageUrls: [{ url: 'nope' }] }, ['mediaImageUrls.0.url: must be an absolute http(s) URL']],
    ['a link title without a URL', { header: 'x', ctaLink: { url: '', title: 'T', description: '', imageUrl: '' } }, ['ctaLink.url: must be an absolute http(s) URL']],
    ['a button without a text', { header: 'x', button: { text: '', url: 'https://example.com' } }, ['button.text: A button needs a text.']],
    ['an author image without a name', { header: 'x', author: { name: '', imageUrl: 'https://example.com/a.png' } }, ['author.name: An author needs a name.']],
    ['a text over the contract limit', { text: 'a'.repeat(10_001) }, ['text: must be at most 10,000 characters long']],
    ['too many media images', { header: 'x', mediaImageUrls: Array.from({ length: 21 }, (_, i) => ({ url: `https://example.com/${i}.png` })) }, ['mediaImageUrls: At most 20 media images are allowed.']],
  ])('refuses %s before sending', (_name, patch, expected) => {
    expect(issuesOf(values(patch))).toEqual(expected);
  });

  describe('in Norwegian (issue 23)', () => {
    afterAll(() => activateLocale('en'));
    it('writes its own messages in bokmål, read when validating', async () => {
      await activateLocale('nb', { needed: ['posts'] });
      expect(issuesOf(values({ action: 'schedule', header: 'x', publishDate: '2001-01-01 10:00:00' }))).toEqual(['publishDate: Publiseringstidspunktet må være fram i tid: dette tidspunktet har allerede passert.']);
      expect(issuesOf(values({ action: 'schedule', header: 'x' }))).toEqual(['publishDate: Velg dato og klokkeslett for publiseringen.']);
      expect(issuesOf(values({}))).toEqual(['text: Et innlegg trenger innhold: skriv en tekst eller en overskrift, eller legg til et bilde.']);
    });
  });

  it('accepts a suggestion without a time and a schedule in the future', () => {
    expect(issuesOf(values({ action: 'suggest', text: 'idea' }))).toEqual([]);
    expect(issuesOf(values({ action: 'schedule', text: 'later', publishDate: '2099-01-01 09:00:00' }))).toEqual([]);
  });

  it.each([
    ['publishDate', 'publishDate'],
    ['mediaImageUrls.3', 'mediaImageUrls.3.url'],
    ['ctaLink', 'ctaLink.url'],
    ['ctaLink.imageUrl', 'ctaLink.imageUrl'],
    ['button.url', 'button.url'],
    ['author', 'author.name'],
    ['recipients.contactIds.0', 'recipients'],
    ['body', 'root'],
    ['property', 'root'],
  ])('maps the request path %s to the form field %s', (path, field) => {
    expect(formFieldOf(path.split('.'))).toBe(field);
  });

  it('splits a 400 message onto fields, the rest to root', () => {
    expect(serverErrorFields('publishDate must be in the future to schedule a post, got 2020-01-01T00:00:00.000Z; ctaLink.url must be an absolute http(s) URL; property foo should not exist; recipients: unknown contact x')).toEqual([
      { field: 'publishDate', message: 'publishDate must be in the future to schedule a post, got 2020-01-01T00:00:00.000Z' },
      { field: 'ctaLink.url', message: 'ctaLink.url must be an absolute http(s) URL' },
      { field: 'root', message: 'property foo should not exist' },
      { field: 'recipients', message: 'recipients: unknown contact x' },
    ]);
    expect(serverErrorFields('Internal server error')).toEqual([{ field: 'root', message: 'Internal server error' }]);
  });

  it('reads a damaged draft back with defaults instead of failing', () => {
    expect(parseDraft(null)).toBeNull();
    expect(parseDraft({ header: 'kept', text: 42, mediaImageUrls: 'x', action: 'launch', ctaLink: { url: 'https://e.x' } })).toEqual(
      values({ header: 'kept', ctaLink: { url: 'https://e.x', title: '', description: '', imageUrl: '' } }),
    );
  });
});
