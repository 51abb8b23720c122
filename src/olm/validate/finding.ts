/**
 * A validation finding as operator-framework/api reports one: its level, type, the field and bad
 * value it concerns, and its detail. `findingMessage` renders it the way operator-sdk prints it
 * (`Error: Value <v>: <detail>`, `Warning: Field <f>, Value <v>: <detail>`), so tsop's and
 * operator-sdk's outputs can be compared line for line.
 */
export type Level = 'Error' | 'Warning';

export interface Finding {
  level: Level;
  type: string;
  field?: string;
  /** Already rendered as Go's %v would; undefined when the finding has no value (Go's nil). */
  value?: string;
  detail: string;
  /** Printed as the detail alone (operator-registry's format errors carry no level prefix). */
  plain?: boolean;
}

export function findingMessage(f: Finding): string {
  if (f.plain) return f.detail;
  const detail = f.detail === '' ? '' : `: ${f.detail}`;
  let out: string;
  if (f.field && f.value !== undefined) out = `Field ${f.field}, Value ${f.value}${detail}`;
  else if (f.field) out = `Field ${f.field}${detail}`;
  else if (f.value !== undefined) out = `Value ${f.value}${detail}`;
  else out = detail;
  return out === '' ? 'ErrMessageMissing' : `${f.level}: ${out}`;
}

const make =
  (type: string, level: Level) =>
  (detail: string, value?: string, field?: string): Finding => ({
    level,
    type,
    detail,
    ...(value !== undefined ? { value } : {}),
    ...(field !== undefined ? { field } : {}),
  });

/** operator-framework/api's constructors, by error type. A CSV-level one prefixes the CSV's name. */
export const invalidCsv = (level: Level, detail: string, csvName: string): Finding => ({
  level,
  type: 'CSVFileNotValid',
  value: '',
  detail: `(${csvName}) ${detail}`,
});
export const errInvalidBundle = make('BundleNotValid', 'Error');
export const warnInvalidBundle = make('BundleNotValid', 'Warning');
export const errFailedValidation = make('ValidationFailed', 'Error');
export const warnFailedValidation = make('ValidationFailed', 'Warning');
export const errInvalidOperation = make('OperationFailed', 'Error');
export const warnInvalidOperation = make('OperationFailed', 'Warning');
export const errInvalidParse = make('ParseError', 'Error');
export const errFieldMissing = (detail: string, field: string, value: string): Finding => ({
  level: 'Error',
  type: 'FieldNotFound',
  field,
  value,
  detail,
});
export const warnPropertiesAnnotation = (detail: string): Finding => ({
  level: 'Warning',
  type: 'PropertiesAnnotationUsed',
  value: '',
  detail,
});
export const warnDeprecatedValidator = (detail: string): Finding => ({
  level: 'Warning',
  type: 'DeprecatedValidator',
  value: '',
  detail,
});

/** Go's %v of a GroupVersionKind. */
export function gvkString(group: string, version: string, kind: string): string {
  return `${group === '' ? '' : `${group}/`}${version}, Kind=${kind}`;
}

/** Go's %q: a double-quoted string with Go escapes. */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_m, hex: string) => `\\u${hex}`);
}

/** Go's %+q of a []string: `["a" "b"]`, non-ASCII escaped. */
export function goQuoteList(items: readonly string[]): string {
  const ascii = (s: string): string =>
    goQuote(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `[${items.map(ascii).join(' ')}]`;
}
