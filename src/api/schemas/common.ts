// Building blocks of the request schemas, with the API's documented bounds.
import * as z from 'zod';
import { REQUIRED } from './messages.js';
import { ID_MAX } from '../../util/numbers.js';

export const id = z.number().int().min(0).max(ID_MAX);
export const str255 = z.string().min(1).max(255);

/** For a required field's own schema: its own message when present but wrong. */
const orRequired = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : message);

// Calendar-checked (2025-02-30 is refused): the service would refuse it after the send.
export const date = z.iso.date({ error: orRequired('expected a date YYYY-MM-DD') });
// ISO 8601 only (Date.parse would take "1 Jan 2025", which the service refuses); without an
// offset the service reads it in its own time zone.
export const dateTime = z.iso.datetime({
  offset: true,
  local: true,
  error: orRequired('expected an ISO 8601 date-time, e.g. 2025-03-01T14:30:00Z'),
});
export const tags = z.array(z.string().min(1, 'tags must be non-empty strings'));

