// Strings from the API are untrusted: an order's external_id could carry an escape sequence
// that rewrites the terminal title or hides text. Everything bound for a terminal goes through here.

// CSI / OSC / other ESC sequences, then any remaining C0/C1 control character except tab/newline.
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControl(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}

/** For one table cell: newlines and tabs become spaces too. */
export function cleanCell(text: string): string {
  return stripControl(text).replace(/[\t\n]+/g, ' ');
}
