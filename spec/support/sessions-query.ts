// A parsed sessions query (shared/sessions.ts) with only the fields a spec sets, the others as the API
// defaults them; a limit past the API's cap is kept, to list a whole index at once.
import * as v from 'valibot';
import { SessionsQuerySchema, type SessionsQuery } from '../../shared/sessions.ts';

export function sessionsQuery(fields: Partial<SessionsQuery>): SessionsQuery {
  return { ...v.parse(SessionsQuerySchema, {}), ...fields };
}
