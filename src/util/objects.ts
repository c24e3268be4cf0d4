// A JSON object (not null, not an array): the shape a config file, an answer or a body must have.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first element of a list from an answer that is no object, as a message names it (`item 2
 * is null`), or undefined: a null among a list's objects is the service's fault, said as such,
 * never a TypeError further on.
 */
export function nonObjectIn(list: readonly unknown[], noun: string): string | undefined {
  const at = list.findIndex((x) => !isPlainObject(x));
  return at < 0 ? undefined : `${noun} ${at + 1} is ${list[at] === null ? 'null' : 'not an object'}`;
}
