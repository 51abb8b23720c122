/** Kubernetes' name rules (apimachinery's validation), with its messages. */
const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_LABEL}(\\.${DNS1123_LABEL})*$`);
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function dns1123SubdomainProblems(value: string): string[] {
  const out: string[] = [];
  if (value.length > 253) out.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(value)) {
    out.push(
      [
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and",
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is",
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ].join(' '),
    );
  }
  return out;
}

export function labelValueProblems(value: string): string[] {
  const out: string[] = [];
  if (value.length > 63) out.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) {
    out.push(
      [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and",
        "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345',",
        "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ].join(' '),
    );
  }
  return out;
}
