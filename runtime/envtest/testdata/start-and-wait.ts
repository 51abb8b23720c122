// Child process for the interruption tests: starts a control plane (the fuller one when given
// `controllers`), says where, and waits forever.
import { startControlPlane } from '../index.js';

const controllers = process.argv.includes('controllers');
const cp = await startControlPlane(controllers ? { controllers: true, nodes: 1 } : {});
process.stdout.write(`READY ${cp.kubeconfigPath.replace(/\/kubeconfig$/, '')}\n`);
setInterval(() => {}, 60_000);
