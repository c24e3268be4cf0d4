// What sct says when a value fails a schema: the API's words for a missing field, plain
// sentences for the rest. Free of zod itself (it only reads the issues zod hands over), so the
// code that only shows these messages or checks flags never loads it.

/** The API's own words for a missing field, rather than zod's "expected string, received undefined". */
export const REQUIRED = 'This field is required.';

/**
 * The zod error map every local validation parses with (per parse: a schema's own message, such
 * as a date's "expected a date YYYY-MM-DD", still wins). A missing field gets the API's own words;
 * every other issue a plain sentence, so zod's wording ("Invalid option: expected one of
 * "draft"|…", "expected array, received number") never reaches the user.
 */
export function requiredMessage(issue: ZodIssueLike): string | undefined {
  return issue.input === undefined ? REQUIRED : plainMessage(issue);
}

/** What an error map is given: the issue's code and the details of that code. */
export interface ZodIssueLike {
  code?: string;
  input?: unknown;
  expected?: string;
  values?: readonly unknown[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  divisor?: number;
  keys?: string[];
}

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  date: 'a date',
  null: 'null',
  nan: 'a number',
};

const FORMATS: Record<string, string> = {
  date: 'a date YYYY-MM-DD',
  datetime: 'an ISO 8601 date-time, e.g. 2025-03-01T14:30:00Z',
  time: 'a time HH:MM[:SS]',
  email: 'an e-mail address',
  uuid: 'a UUID',
  guid: 'a UUID',
  url: 'a URL',
};

/** A value as messages quote it: strings in double quotes, the rest as JSON. */
function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** One issue in a plain sentence; undefined leaves zod's (for codes that carry their own message). */
function plainMessage(issue: ZodIssueLike): string | undefined {
  const n = (v: number | bigint | undefined) => String(v);
  switch (issue.code) {
    case 'invalid_type': {
      const kind = KINDS[issue.expected ?? ''] ?? issue.expected;
      return kind ? `expected ${kind}` : 'not a valid value';
    }
    case 'invalid_value': {
      const values = (issue.values ?? []).map((v) => (typeof v === 'string' ? v : quote(v)));
      if (values.length === 1) return `must be ${values[0]}, not ${quote(issue.input)}`;
      return `${quote(issue.input)} is not one of the allowed values: ${values.join(', ')}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'must not be empty' : `must be at least ${n(issue.minimum)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return min <= 1 ? 'must not be an empty list' : `must have at least ${n(issue.minimum)} items`;
      return issue.inclusive === false ? `must be greater than ${n(issue.minimum)}` : `must be at least ${n(issue.minimum)}`;
    }
    case 'too_big': {
      if (issue.origin === 'string') return `must be at most ${n(issue.maximum)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${n(issue.maximum)} items`;
      return issue.inclusive === false ? `must be less than ${n(issue.maximum)}` : `must be at most ${n(issue.maximum)}`;
    }
    case 'invalid_format':
      return issue.format && FORMATS[issue.format] ? `expected ${FORMATS[issue.format]}` : `${quote(issue.input)} is not in the expected format`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `unknown field${(issue.keys?.length ?? 0) === 1 ? '' : 's'}: ${(issue.keys ?? []).join(', ')}`;
    case 'invalid_union':
      return `${quote(issue.input)} is not a valid value here`;
    case 'invalid_key':
      return 'has an invalid key';
    case 'invalid_element':
      return 'has an invalid element';
    default:
      return undefined;
  }
}
