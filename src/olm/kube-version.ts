/**
 * Kubernetes' order of API versions (apimachinery's CompareKubeAwareVersionStrings): GA before
 * beta before alpha, higher numbers first within each; anything else after them, by name.
 */
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Positive when `a` sorts before `b` in Kubernetes' order (the sign apimachinery returns). */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma && !mb) return a < b ? 1 : a > b ? -1 : 0;
  if (!ma) return -1;
  if (!mb) return 1;
  const rank = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(ma) - rank(mb);
  if (Number(ma[1]) !== Number(mb[1])) return Number(ma[1]) - Number(mb[1]);
  return Number(ma[3] ?? 0) - Number(mb[3] ?? 0);
}
