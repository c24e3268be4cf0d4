// A JSON object (not null, not an array): the shape a config file, an answer or a body must have.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
