// The frame of a streamed JSON document, shared by the list writers and -o geojson.
/** How a streamed JSON document opens, separates its items and closes (-o geojson has its own). */
export interface JsonFrame {
  open: string;
  separator: string;
  close: string;
  empty: string;
}
