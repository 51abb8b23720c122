// Child process for the interruption test: starts a control plane, says where, and waits forever.
import { startControlPlane } from '../index.js';

const cp = await startControlPlane();
process.stdout.write(`READY ${cp.kubeconfigPath.replace(/\/kubeconfig$/, '')}\n`);
setInterval(() => {}, 60_000);
