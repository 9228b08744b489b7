/**
 * Kept counts of contacts (issue 39 point 2, migration 0010): the SQL that keeps `contact_counts` in step with
 * `contacts` and `contact_tags`, kept here so the migration and the bulk seeding (bench/seed-contacts.ts, which drops
 * the tables' triggers while it loads) use the same statements. `kind` 'state' counts contacts per state, 'tag' per tag
 * (rows of contact_tags), 'day' per UTC day of `created` (`YYYY-MM-DD`); a count reaching 0 is deleted with its row.
 */

/**
 * The statement that recounts `contact_counts` from the rows there, for every workspace, or for the one whose id is
 * the statement's single parameter (`?` on SQLite, `$1` on PostgreSQL) when `workspace` is given. Run it where the
 * counts are empty (for one workspace: after deleting its rows).
 */
export function recountStatement(workspace?: '?' | '$1'): string {
  const where = workspace ? ` where workspace_id = ${workspace}` : '';
  return `insert into contact_counts (workspace_id, kind, name, n)
    select workspace_id, 'state', state, count(*) from contacts${where} group by workspace_id, state
    union all select workspace_id, 'day', substr(created, 1, 10), count(*) from contacts${where} group by workspace_id, substr(created, 1, 10)
    union all select workspace_id, 'tag', tag, count(*) from contact_tags${where} group by workspace_id, tag`;
}

/** The statements creating the triggers that keep `contact_counts`, on `database`. */
export function countTriggers(database: 'sqlite' | 'postgres'): readonly string[] {
  return database === 'postgres' ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS;
}

/** SQLite's row triggers of migration 0010: +1 / -1 per key, a row deleted when its count reaches 0. */
const SQLITE_TRIGGERS = (() => {
  const add = (ws: string, kind: string, key: string) =>
    `insert into contact_counts (workspace_id, kind, name, n) values (${ws}, '${kind}', ${key}, 1) on conflict (workspace_id, kind, name) do update set n = n + 1;`;
  // A decrement is one statement; the row it takes to 0 is deleted by contact_counts_zero, whose WHEN clause costs no
  // statement otherwise (a trigger fired from a trigger on another table: no recursive_triggers needed).
  const remove = (ws: string, kind: string, key: string) => `update contact_counts set n = n - 1 where workspace_id = ${ws} and kind = '${kind}' and name = ${key};`;
  return [
    `create trigger contact_counts_zero after update of n on contact_counts when new.n <= 0 begin
       delete from contact_counts where workspace_id = new.workspace_id and kind = new.kind and name = new.name; end`,
    `create trigger contact_counts_contact_insert after insert on contacts begin
       ${add('new.workspace_id', 'state', 'new.state')} ${add('new.workspace_id', 'day', 'substr(new.created, 1, 10)')} end`,
    `create trigger contact_counts_contact_delete after delete on contacts begin
       ${remove('old.workspace_id', 'state', 'old.state')} ${remove('old.workspace_id', 'day', 'substr(old.created, 1, 10)')} end`,
    `create trigger contact_counts_contact_state after update of state on contacts when old.state is not new.state begin
       ${remove('old.workspace_id', 'state', 'old.state')} ${add('new.workspace_id', 'state', 'new.state')} end`,
    `create trigger contact_counts_tag_insert after insert on contact_tags begin ${add('new.workspace_id', 'tag', 'new.tag')} end`,
    `create trigger contact_counts_tag_delete after delete on contact_tags begin ${remove('old.workspace_id', 'tag', 'old.tag')} end`,
  ];
})();

/**
 * PostgreSQL's triggers of migration 0010: inserts and deletes counted per statement from their transition table
 * (`keys` lists a row's (kind, name) pairs), a state change per row.
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
  return [
    ...statementTrigger('contacts', `select workspace_id, 'state'::text as kind, state as name from $rows union all select workspace_id, 'day', substr(created, 1, 10) from $rows`),
    ...statementTrigger('contact_tags', `select workspace_id, 'tag'::text as kind, tag as name from $rows`),
    `create function contact_counts_contact_state() returns trigger language plpgsql as $$ begin
       update contact_counts set n = n - 1 where workspace_id = old.workspace_id and kind = 'state' and name = old.state;
       delete from contact_counts where workspace_id = old.workspace_id and kind = 'state' and name = old.state and n <= 0;
       insert into contact_counts (workspace_id, kind, name, n) values (new.workspace_id, 'state', new.state, 1)
         on conflict (workspace_id, kind, name) do update set n = contact_counts.n + 1;
       return null; end $$`,
    `create trigger contact_counts_contact_state after update of state on contacts for each row when (old.state is distinct from new.state)
       execute function contact_counts_contact_state()`,
  ];
})();
