/**
 * Kept counts of contacts (issue 39 point 2, migrations 0010 and 0011): the SQL that keeps `contact_counts` in step
 * with `contacts` and `contact_tags`, kept here so the migrations and the bulk seeding (bench/seed-contacts.ts, which
 * drops the tables' triggers while it loads) use the same statements. `kind` 'state' counts contacts per state,
 * `tag:<state>` (TAG_KINDS) the contacts in that state carrying each tag (rows of contact_tags by their contact's
 * state: a tag's contacts are the sum over the states, and a tag filter's `byState` of `GET /contacts/stats` is read
 * as it stands, issue 35), 'day' per UTC day of `created` (`YYYY-MM-DD`); a count reaching 0 is deleted with its row.
 */
import { CONTACT_STATES } from '../../src/api/contacts';

/** The kinds counting a tag's contacts, one per contact state (the contact states of docs/decisions.md section 7). */
export const TAG_KINDS = CONTACT_STATES.map((state) => `tag:${state}` as const);

/**
 * The statement that recounts `contact_counts` on `database` from the rows there, for every workspace, or for the one
 * whose id is the statement's single parameter (`?` on SQLite, `$1` on PostgreSQL) when `workspace` is given. Run it where the
 * counts are empty (for one workspace: after deleting its rows).
 */
export function recountStatement(database: 'sqlite' | 'postgres', workspace?: '?' | '$1'): string {
  const where = workspace ? ` where workspace_id = ${workspace}` : '';
  // SQLite walks the contacts (an index holding workspace, state and id) and looks up each one's tag rows by contact,
  // in that order (CROSS JOIN): 9.8 s at 1,000,000 contacts against 16.2 s the other way round (a contact looked up
  // for each tag row). PostgreSQL chooses its own join.
  const join = database === 'sqlite' ? 'contacts c cross join contact_tags t on t.contact_id = c.id' : 'contacts c join contact_tags t on t.contact_id = c.id';
  return `insert into contact_counts (workspace_id, kind, name, n)
    select workspace_id, 'state', state, count(*) from contacts${where} group by workspace_id, state
    union all select workspace_id, 'day', substr(created, 1, 10), count(*) from contacts${where} group by workspace_id, substr(created, 1, 10)
    union all select c.workspace_id, 'tag:' || c.state, t.tag, count(*) from ${join}${where.replace('workspace_id', 'c.workspace_id')}
      group by c.workspace_id, c.state, t.tag`;
}

/**
 * The statements that drop every trigger and function keeping `contact_counts` (those of migration 0010 and of
 * today), for migration 0011, which drops them, recounts and creates today's.
 */
export function dropCountTriggers(database: 'sqlite' | 'postgres'): readonly string[] {
  const triggers: [string, string][] = [
    ['contact_counts_zero', 'contact_counts'],
    ['contact_counts_contact_insert', 'contacts'],
    ['contact_counts_contact_delete', 'contacts'],
    ['contact_counts_contact_before_delete', 'contacts'],
    ['contact_counts_contact_state', 'contacts'],
    ['contact_counts_tag_insert', 'contact_tags'],
    ['contact_counts_tag_delete', 'contact_tags'],
    ['contact_counts_contacts_insert', 'contacts'],
    ['contact_counts_contacts_delete', 'contacts'],
    ['contact_counts_contact_tags_insert', 'contact_tags'],
    ['contact_counts_contact_tags_delete', 'contact_tags'],
  ];
  if (database === 'sqlite') return triggers.map(([name]) => `drop trigger if exists ${name}`);
  return [...triggers.map(([name, table]) => `drop trigger if exists ${name} on ${table}`), ...triggers.map(([name]) => `drop function if exists ${name}()`)];
}

/** The statements creating the triggers that keep `contact_counts`, on `database`. */
export function countTriggers(database: 'sqlite' | 'postgres'): readonly string[] {
  return database === 'postgres' ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS;
}

/** SQLite's row triggers (migration 0011): +1 / -1 per key, a row deleted when its count reaches 0. */
const SQLITE_TRIGGERS = (() => {
  // `kind` is a literal, or (`expression`) SQL giving it.
  const kindSql = (kind: string, expression: boolean) => (expression ? kind : `'${kind}'`);
  const add = (ws: string, kind: string, key: string, expression = false) =>
    `insert into contact_counts (workspace_id, kind, name, n) values (${ws}, ${kindSql(kind, expression)}, ${key}, 1) on conflict (workspace_id, kind, name) do update set n = n + 1;`;
  // A decrement is one statement; the row it takes to 0 is deleted by contact_counts_zero, whose WHEN clause costs no
  // statement otherwise (a trigger fired from a trigger on another table: no recursive_triggers needed).
  const remove = (ws: string, kind: string, key: string, expression = false) =>
    `update contact_counts set n = n - 1 where workspace_id = ${ws} and kind = ${kindSql(kind, expression)} and name = ${key};`;
  // The state of a tag row's contact (null once the contact is gone: nothing is counted off then).
  const stateOf = (row: string) => `(select state from contacts where id = ${row}.contact_id)`;
  const removeTagsOf = (row: string) =>
    `update contact_counts set n = n - 1 where workspace_id = ${row}.workspace_id and kind = 'tag:' || ${row}.state and name in (select tag from contact_tags where contact_id = ${row}.id);`;
  return [
    `create trigger contact_counts_zero after update of n on contact_counts when new.n <= 0 begin
       delete from contact_counts where workspace_id = new.workspace_id and kind = new.kind and name = new.name; end`,
    `create trigger contact_counts_contact_insert after insert on contacts begin
       ${add('new.workspace_id', 'state', 'new.state')} ${add('new.workspace_id', 'day', 'substr(new.created, 1, 10)')} end`,
    `create trigger contact_counts_contact_delete after delete on contacts begin
       ${remove('old.workspace_id', 'state', 'old.state')} ${remove('old.workspace_id', 'day', 'substr(old.created, 1, 10)')} end`,
    // A contact deleted with its tag rows still there (the foreign key's cascade, which deletes them once the contact
    // is gone, so their own trigger no longer finds its state): its tags counted off first.
    `create trigger contact_counts_contact_before_delete before delete on contacts begin ${removeTagsOf('old')} end`,
    `create trigger contact_counts_contact_state after update of state on contacts when old.state is not new.state begin
       ${remove('old.workspace_id', 'state', 'old.state')} ${add('new.workspace_id', 'state', 'new.state')}
       ${removeTagsOf('old')}
       insert into contact_counts (workspace_id, kind, name, n) select new.workspace_id, 'tag:' || new.state, tag, 1 from contact_tags where contact_id = new.id
         on conflict (workspace_id, kind, name) do update set n = n + 1; end`,
    `create trigger contact_counts_tag_insert after insert on contact_tags begin ${add('new.workspace_id', `'tag:' || ${stateOf('new')}`, 'new.tag', true)} end`,
    `create trigger contact_counts_tag_delete after delete on contact_tags begin ${remove('old.workspace_id', `'tag:' || ${stateOf('old')}`, 'old.tag', true)} end`,
  ];
})();

/**
 * PostgreSQL's triggers (migration 0011): inserts and deletes counted per statement from their transition table
 * (`keys` lists a row's (kind, name) pairs), a state change and a contact's deletion per row.
 */
const POSTGRES_TRIGGERS = (() => {
  const counted = (rows: string, keys: string) =>
    `select workspace_id, kind, name, count(*) as c from (${keys.replaceAll('$rows', rows)}) k group by workspace_id, kind, name order by workspace_id, kind, name`;
  const statementTrigger = (table: string, keys: string) => [
    `create function contact_counts_${table}_insert() returns trigger language plpgsql as $$ begin
       insert into contact_counts (workspace_id, kind, name, n) ${counted('new_rows', keys)}
         on conflict (workspace_id, kind, name) do update set n = contact_counts.n + excluded.n;
       return null; end $$`,
    `create function contact_counts_${table}_delete() returns trigger language plpgsql as $$ begin
       with d as (${counted('old_rows', keys)})
         update contact_counts t set n = t.n - d.c from d where t.workspace_id = d.workspace_id and t.kind = d.kind and t.name = d.name;
       with d as (${counted('old_rows', keys)})
         delete from contact_counts t using d where t.workspace_id = d.workspace_id and t.kind = d.kind and t.name = d.name and t.n <= 0;
       return null; end $$`,
    `create trigger contact_counts_${table}_insert after insert on ${table} referencing new table as new_rows for each statement execute function contact_counts_${table}_insert()`,
    `create trigger contact_counts_${table}_delete after delete on ${table} referencing old table as old_rows for each statement execute function contact_counts_${table}_delete()`,
  ];
  // A contact's tags counted off under its state `old.state` (a state change, or the contact deleted with its tag rows).
  const removeTagsOfOld = `update contact_counts set n = n - 1 where workspace_id = old.workspace_id and kind = 'tag:' || old.state
         and name in (select tag from contact_tags where contact_id = old.id);
       delete from contact_counts where workspace_id = old.workspace_id and kind = 'tag:' || old.state and n <= 0;`;
  return [
    ...statementTrigger('contacts', `select workspace_id, 'state'::text as kind, state as name from $rows union all select workspace_id, 'day', substr(created, 1, 10) from $rows`),
    // A tag row's state is its contact's; rows whose contact is gone (the foreign key's cascade deletes them after
    // it) are not counted off here but by contact_counts_contact_before_delete.
    ...statementTrigger('contact_tags', `select r.workspace_id, 'tag:' || c.state as kind, r.tag as name from $rows r join contacts c on c.id = r.contact_id`),
    `create function contact_counts_contact_before_delete() returns trigger language plpgsql as $$ begin
       ${removeTagsOfOld}
       return old; end $$`,
    `create trigger contact_counts_contact_before_delete before delete on contacts for each row execute function contact_counts_contact_before_delete()`,
    `create function contact_counts_contact_state() returns trigger language plpgsql as $$ begin
       update contact_counts set n = n - 1 where workspace_id = old.workspace_id and kind = 'state' and name = old.state;
       delete from contact_counts where workspace_id = old.workspace_id and kind = 'state' and name = old.state and n <= 0;
       insert into contact_counts (workspace_id, kind, name, n) values (new.workspace_id, 'state', new.state, 1)
         on conflict (workspace_id, kind, name) do update set n = contact_counts.n + 1;
       ${removeTagsOfOld}
       insert into contact_counts (workspace_id, kind, name, n) select new.workspace_id, 'tag:' || new.state, tag, 1 from contact_tags where contact_id = new.id order by tag
         on conflict (workspace_id, kind, name) do update set n = contact_counts.n + 1;
       return null; end $$`,
    `create trigger contact_counts_contact_state after update of state on contacts for each row when (old.state is distinct from new.state)
       execute function contact_counts_contact_state()`,
  ];
})();
