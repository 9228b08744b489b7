/** What every route module is built with: the database and the stores over it. */
import type { ServiceDatabase } from '../db/connection';
import type { ContactStore } from '../db/contacts';

export type RouteContext = { database: ServiceDatabase; contacts: ContactStore };
