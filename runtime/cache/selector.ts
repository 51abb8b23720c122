/**
 * Label selectors in their string form ('app=web,tier!=db,env in (a,b),!legacy'), parsed once
 * into requirements and matched against an object's labels — what the cache reader needs to
 * answer `list({ labelSelector })` from memory the way the API server would.
 */

export type Requirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'doesnotexist' };

export class InvalidSelectorError extends Error {
  override readonly name = 'InvalidSelectorError';
}

/** Splits at commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

const KEY = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;

function checkKey(key: string, term: string): string {
  if (!KEY.test(key)) throw new InvalidSelectorError(`invalid label key in "${term}"`);
  return key;
}

function parseTerm(term: string): Requirement {
  const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    return { key: checkKey(set[1]!, term), op: set[2] as 'in' | 'notin', values };
  }
  const cmp = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (cmp) {
    const key = checkKey(cmp[1]!, term);
    return { key, op: cmp[2] === '!=' ? 'notin' : 'in', values: [cmp[3]!] };
  }
  if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim(), term), op: 'doesnotexist' };
  return { key: checkKey(term, term), op: 'exists' };
}

export function parseLabelSelector(selector: string): Requirement[] {
  return splitTerms(selector).map(parseTerm);
}

export function matchesLabels(reqs: readonly Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  for (const r of reqs) {
    const has = Object.hasOwn(l, r.key);
    switch (r.op) {
      case 'exists':
        if (!has) return false;
        break;
      case 'doesnotexist':
        if (has) return false;
        break;
      case 'in':
        if (!has || !r.values.includes(l[r.key]!)) return false;
        break;
      case 'notin':
        if (has && r.values.includes(l[r.key]!)) return false;
        break;
    }
  }
  return true;
}
