// What a student's name may hold, checked by the weekly import and the flag uploader on every
// report row and by the student edit (issue 41.9). A name travels into CSV exports, PDFs,
// e-mails, audit rows and the server log, where a line break starts a line of its own and a
// bidirectional override makes one name read as another.

/**
 * Whether `text` holds a C0 control (tab, CR and LF among them), DEL, a C1 control (NEL among
 * them), the Unicode line or paragraph separator (U+2028, U+2029), or a bidirectional
 * embedding, override or isolate (U+202A–U+202E, U+2066–U+2069). The marks LRM and RLM and
 * the joiners ZWJ and ZWNJ stay allowed: names in Arabic, Persian or Indic scripts need them.
 */
export function hasNameControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
    if (c === 0x2028 || c === 0x2029 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
  }
  return false;
}

/** A report row's problem with such a name (the import names the file, row and column before it). */
export const NAME_CONTROL_CHARACTER_PROBLEM = "contains a line break or another control character";

/** The edit's refusal, naming the field: "First name must not contain line breaks or other control characters". */
export const nameControlCharacterMessage = (label: string) => `${label} must not contain line breaks or other control characters`;
