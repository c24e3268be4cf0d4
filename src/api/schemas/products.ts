// Product request bodies. The API documents the product response only; sct accepts those
// fields on create/update, requires a name on create, and passes unknown fields through.
import * as z from 'zod';
import { str255, tags } from './common.js';
import { COMMODITIES, COMPOSITIONS } from '../enums.js';

const productFields = {
  name: str255,
  sku: z.string().max(255).nullish(),
  description: z.string().nullish(),
  scientific_name: z.string().max(255).nullish(),
  common_name: z.string().max(255).nullish(),
  hs_code: z.string().max(255).nullish(),
  external_id: z.string().max(255).nullish(),
  type: z.string().max(255).nullish(),
  commodity: z.enum(COMMODITIES).nullish(),
  composition: z.enum(COMPOSITIONS).nullish(),
  metadata: z
    .looseObject({ species: z.array(z.looseObject({ common_name: z.string().optional(), scientific_name: z.string().optional() })).optional() })
    .optional(),
  tags: tags.optional(),
};

export const productCreateSchema = z.looseObject(productFields);
export const productUpdateSchema = z.looseObject(productFields).partial();
