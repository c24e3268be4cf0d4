// Which plot format a file is, by its name or its first bytes: what `origins import` and `origins
// sync` decide a plot file from a CSV file with, before anything heavy is loaded.
import { extname } from 'node:path';

// 'shapefile-part': a .shp, .shx or .dbf alone, which is a Shapefile's piece and never a table.
export type PlotFormat = 'geojson' | 'kml' | 'kmz' | 'shapefile' | 'shapefile-part' | 'gpx';

const BY_EXTENSION: Readonly<Record<string, PlotFormat>> = { '.geojson': 'geojson', '.json': 'geojson', '.kml': 'kml', '.kmz': 'kmz', '.gpx': 'gpx', '.zip': 'shapefile', '.shp': 'shapefile-part', '.shx': 'shapefile-part', '.dbf': 'shapefile-part' };

/** The plot format a file name says, if it says one. */
export function formatByName(file: string): PlotFormat | undefined {
  return BY_EXTENSION[extname(file).toLowerCase()];
}

/** The plot format the first bytes of a file show (a ZIP is told apart when it is opened). */
export function formatByContent(head: Uint8Array): PlotFormat | undefined {
  // UTF-16 by its byte-order mark (a KML saved as "Unicode" on Windows), else UTF-8.
  const encoding = head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : 'utf-8';
  const text = new TextDecoder(encoding).decode(head.subarray(0, 1024)).replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{')) return 'geojson';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'shapefile';
  // A .shp or .shx starts with its file code, 9994 big-endian: a piece of a Shapefile, on stdin.
  if (head[0] === 0 && head[1] === 0 && head[2] === 0x27 && head[3] === 0x0a) return 'shapefile-part';
  if (text.startsWith('<')) {
    if (/<kml[\s>]/.test(text)) return 'kml';
    if (/<gpx[\s>]/.test(text)) return 'gpx';
  }
  return undefined;
}

