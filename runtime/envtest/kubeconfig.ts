/** The admin kubeconfig of a control plane, as YAML text (certificates embedded). */
import { stringify } from 'yaml';
import type { ControlPlaneCertificates } from './certs.js';

const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

export function adminKubeconfig(server: string, certs: ControlPlaneCertificates, name = 'envtest'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'certificate-authority-data': b64(certs.ca.certPem) } }],
    users: [
      {
        name: `${name}-admin`,
        user: { 'client-certificate-data': b64(certs.admin.certPem), 'client-key-data': b64(certs.admin.keyPem) },
      },
    ],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin`, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
