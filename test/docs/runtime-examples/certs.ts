/** A serving certificate without openssl, and one that follows its files when cert-manager renews them. */
import {
  CertWatcher,
  selfSignedServingCertificate,
} from '../../../runtime/certs/index.js';

// For a server that must speak TLS before anyone has issued it a certificate.
const { certPem, keyPem } = selfSignedServingCertificate({
  dnsNames: ['localhost', 'memcached-webhook.memcached-system.svc'],
});
console.log(certPem.split('\n')[0], keyPem.length > 0);

// The webhook server uses one of these: it reloads tls.crt and tls.key when
// they change.
const dir = '/tmp/k8s-webhook-server/serving-certs';
const watcher = new CertWatcher({
  certPath: `${dir}/tls.crt`,
  keyPath: `${dir}/tls.key`,
});
// throws CertificateLoadError when the pair cannot be read
await watcher.start();
console.log(watcher.current().cert.length);
watcher.stop();
