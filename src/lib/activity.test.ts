import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateLocale, loadArea } from '@/i18n/i18n';
import { changeLines, notificationText } from './activity';

describe('notification settings in words (issue 34 point 9)', () => {
  beforeAll(() => loadArea('activity'));
  afterAll(() => activateLocale('en'));

  it('says a contact\'s channels in plain words, never the raw email,sms', () => {
    expect(changeLines({ action: 'create', changes: { notificationSettings: 'email,sms', city: 'Oslo' } })).toEqual(['Notifications: email and SMS', 'City: Oslo']);
    expect(['email', 'sms', 'none'].map(notificationText)).toEqual(['email', 'SMS', 'none']);
    expect(changeLines({ action: 'notifications', changes: { notificationSettings: [{ email: true, sms: false }, { email: true, sms: true }] } })).toEqual([
      'Notifications: email on, SMS off → email on, SMS on',
    ]);
    expect(notificationText('fax')).toBe('fax');
  });

  it('in bokmål', async () => {
    await activateLocale('nb', { needed: ['activity'] });
    expect(changeLines({ action: 'create', changes: { notificationSettings: 'email,sms' } })).toEqual(['Varsler: e-post og SMS']);
  });
});
