/**
 * The contacts on a phone (issue 34 point 8): a list of cards instead of the table, one a contact, with its name
 * (a link to its record), state, e-mail (never broken inside a word), phone, city and tags, and the selection
 * checkbox a 44 px touch target. The page chooses it below 48em (src/lib/narrow.ts); sorting stays with the table.
 */
import type { RowSelectionState } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Link, type To } from 'react-router';
import { Skeleton } from '@mantine/core';
import type { Contact } from '@/api/contacts';
import { Avatar } from '@/components/avatar';
import { CellChips, CellStatus } from '@/components/data-table';
import { EmailText } from '@/components/email-text';
import { t } from '@/i18n/i18n';
import { stateLabel } from './contact-columns';
import classes from './contact-cards.module.css';

export type ContactCardsProps = {
  label: string;
  /** The page's contacts; undefined while the first page loads. */
  rows: Contact[] | undefined;
  pageSize: number;
  fetching?: boolean;
  selection: RowSelectionState;
  /** Unset: no selection checkboxes. */
  onSelectionChange?: ((selection: RowSelectionState) => void) | undefined;
  linkTo: (contact: Contact) => To;
  linkState?: unknown;
  empty: ReactNode;
};

/** The contacts as cards, for a phone. */
export function ContactCards({ label, rows, pageSize, fetching, selection, onSelectionChange, linkTo, linkState, empty }: ContactCardsProps) {
  if (rows === undefined) {
    return (
      <div aria-busy="true" aria-label={label} className={classes.list}>
        {Array.from({ length: Math.min(pageSize, 8) }, (_, index) => <Skeleton key={index} height={72} radius="sm" mb="xs" />)}
      </div>
    );
  }
  if (!rows.length) return <div className={classes.empty}>{empty}</div>;
  return (
    <ul className={classes.list} aria-label={label} aria-busy={fetching || undefined} data-fetching={fetching || undefined}>
      {rows.map((contact) => {
        const name = contact.name ?? t('contacts.noName');
        return (
          <li key={contact.id} className={classes.card} data-selected={selection[contact.id] || undefined}>
            {onSelectionChange ? (
              <input
                type="checkbox"
                className={classes.checkbox}
                aria-label={t('lists.selectRow', { row: contact.name ?? contact.email ?? contact.id })}
                checked={Boolean(selection[contact.id])}
                onChange={(event) => {
                  const next = { ...selection };
                  if (event.currentTarget.checked) next[contact.id] = true;
                  else delete next[contact.id];
                  onSelectionChange(next);
                }}
              />
            ) : null}
            <div className={classes.body}>
              <div className={classes.head}>
                <Avatar src={contact.image} name={contact.name} />
                <Link to={linkTo(contact)} state={linkState} className={classes.name} data-row-link={contact.id}>
                  {name}
                </Link>
                <CellStatus value={stateLabel(contact.state)} positive={contact.state === 'active'} />
              </div>
              {contact.email ? (
                <div className={classes.line}>
                  <EmailText email={contact.email} />
                </div>
              ) : null}
              {contact.phone || contact.city ? <div className={classes.line}>{[contact.phone, contact.city].filter(Boolean).join(' · ')}</div> : null}
              {contact.tags.length ? <CellChips values={contact.tags} /> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
