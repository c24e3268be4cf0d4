// Building blocks of the request schemas, with the API's documented bounds.
import { z } from 'zod';

export const ID_MAX = 2_147_483_647;
export const id = z.number().int().min(0).max(ID_MAX);
export const str255 = z.string().min(1).max(255);
export const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');
export const dateTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'expected a date-time (ISO 8601)');
export const tags = z.array(z.string().min(1, 'tags must be non-empty strings'));

export const COMMODITIES = ['cattle', 'cocoa', 'coffee', 'palm_oil', 'rubber', 'soya', 'wood'] as const;
export const COMPOSITIONS = ['simple', 'composite'] as const;
export const ASSESSMENT_STATUSES = ['pending', 'in_progress', 'passing', 'failing', 'mitigated'] as const;
