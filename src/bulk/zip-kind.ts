// What a ZIP file is, by the entries that say so, before anything heavy is loaded: a workbook
// (.xlsx, .ods), which the CSV reader reads (src/bulk/workbook.ts), or something else, said as
// what it looks like. origins import/sync ask it too, to tell a workbook from a zipped Shapefile.
import { unzipSync } from 'fflate';
import { PASSWORD_PROTECTED } from './decode.js';

export type WorkbookKind = 'xlsx' | 'ods';

const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';
/** The content types of a workbook's main part: .xlsx and the same with macros (.xlsm). */
const XLSX_MAIN = /application\/vnd\.(openxmlformats-officedocument\.spreadsheetml\.sheet|ms-excel\.sheet\.macroEnabled)\.main\+xml/;

/**
 * What a ZIP holds, by the entries that say so: an OpenDocument file's `mimetype`, an Office
 * file's `[Content_Types].xml`. Either the workbook kind, or what the file looks like.
 */
export function zipKind(bytes: Uint8Array): { workbook: WorkbookKind } | { looksLike: string } {
  let entries: Record<string, Uint8Array>;
  try {
    // Only the three small entries that say what it is are inflated.
    entries = unzipSync(bytes, { filter: (f) => f.name === 'mimetype' || f.name === '[Content_Types].xml' || f.name === 'META-INF/manifest.xml' });
  } catch {
    return { looksLike: 'a damaged ZIP archive' };
  }
  const mimetype = entries.mimetype ? Buffer.from(entries.mimetype).toString('latin1').trim() : undefined;
  // An OpenDocument file saved with a password: its parts are encrypted, the manifest says how.
  const manifest = entries['META-INF/manifest.xml'] ? Buffer.from(entries['META-INF/manifest.xml']).toString('utf8') : '';
  if (mimetype === ODS_MIMETYPE && manifest.includes('encryption-data')) return { looksLike: PASSWORD_PROTECTED };
  if (mimetype === ODS_MIMETYPE) return { workbook: 'ods' };
  const types = entries['[Content_Types].xml'] ? Buffer.from(entries['[Content_Types].xml']).toString('utf8') : '';
  if (XLSX_MAIN.test(types)) return { workbook: 'xlsx' };
  if (types.includes('ms-excel.sheet.binary')) return { looksLike: 'an Excel binary workbook (.xlsb); save it as .xlsx' };
  if (types.includes('wordprocessingml')) return { looksLike: 'a Word document (.docx)' };
  if (types.includes('presentationml')) return { looksLike: 'a PowerPoint presentation (.pptx)' };
  if (mimetype?.startsWith('application/vnd.oasis.opendocument.')) return { looksLike: `an OpenDocument file that is not a spreadsheet (${mimetype})` };
  return { looksLike: 'a ZIP archive (neither an .xlsx nor an .ods workbook)' };
}
