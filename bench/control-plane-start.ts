/**
 * How long the harness takes to start a control plane (etcd + kube-apiserver ready) with warm
 * binaries. Prints each run and the median of 5. Target: under 10 s.
 *
 *   npm run bench:control-plane
 */
import { startControlPlane } from '../runtime/envtest/index.js';

const runs = Number(process.env.RUNS ?? 5);
const starts: number[] = [];
const stops: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const cp = await startControlPlane();
  const t1 = performance.now();
  await cp.stop();
  const t2 = performance.now();
  starts.push(t1 - t0);
  stops.push(t2 - t1);
  console.log(`run ${i + 1}: start ${((t1 - t0) / 1000).toFixed(2)} s, stop ${((t2 - t1) / 1000).toFixed(2)} s`);
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
console.log(
  `median of ${runs}: start ${(median(starts) / 1000).toFixed(2)} s, stop ${(median(stops) / 1000).toFixed(2)} s`,
);
