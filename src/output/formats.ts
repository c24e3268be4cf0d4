// The output formats: one list that parsing, `--help`, completion and the messages naming them
// read. Kept apart from format.ts, which writes them, so that the global flags (read as sct starts,
// src/global-flags.ts) take the names without the writers.

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
/** `geojson` is a flag value only, never a profile default: the few commands that write it say so (writesGeojson, src/cli/geojson-check.ts). */
export const GEOJSON = 'geojson';
export type Format = (typeof FORMATS)[number] | typeof GEOJSON;
