/**
 * `generate bundle --use-image-digests` against a registry speaking the OCI distribution API on
 * loopback: anonymous bearer tokens, digests from HEAD /v2/<repo>/manifests/<tag>, images already
 * pinned left alone, and one clear error for an image the registry does not have.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImage, pinImageDigests } from '../../src/olm/digests.js';
import { collect } from '../../src/olm/collector.js';
import type { Csv } from '../../src/olm/csv.js';

const DIGEST = 'sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945';
let server: Server;
let host = '';
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/token')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ token: 'anon' }));
      return;
    }
    if (req.headers.authorization !== 'Bearer anon') {
      res.statusCode = 401;
      res.setHeader(
        'www-authenticate',
        `Bearer realm="http://${host}/token",service="test",scope="repository:example/op:pull"`,
      );
      res.end();
      return;
    }
    if (req.url === '/v2/example/op/manifests/v0.0.1') {
      res.setHeader('docker-content-digest', DIGEST);
      res.end();
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function csvWith(images: string[]): Csv {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: { name: 'op.v0.0.1' },
    spec: {
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [
            {
              name: 'op',
              spec: { template: { spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) } } },
            },
          ],
        },
      },
    },
  };
}

const imagesOf = (csv: Csv): string[] =>
  (
    csv.spec.install!.spec!['deployments'] as Array<{
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
    }>
  )[0]!.spec.template.spec.containers.map((c) => c.image);

describe('--use-image-digests', () => {
  it('parses references as container tools do', () => {
    expect(parseImage('memcached:1.6')).toEqual({ registry: 'docker.io', repository: 'library/memcached', tag: '1.6' });
    expect(parseImage('quay.io/example/op')).toEqual({ registry: 'quay.io', repository: 'example/op', tag: 'latest' });
    expect(parseImage('localhost:5000/op:v1')).toEqual({ registry: 'localhost:5000', repository: 'op', tag: 'v1' });
    expect(parseImage(`quay.io/example/op@${DIGEST}`)).toBeUndefined();
  });

  it('pins tags to the digests the registry gives, through its token', async () => {
    const csv = csvWith([`${host}/example/op:v0.0.1`, `quay.io/example/pinned@${DIGEST}`]);
    await pinImageDigests(csv, collect([]), {});
    expect(imagesOf(csv)).toEqual([`${host}/example/op@${DIGEST}`, `quay.io/example/pinned@${DIGEST}`]);
    expect(csv.spec['relatedImages']).toEqual([
      { image: `${host}/example/op@${DIGEST}`, name: 'c0' },
      { image: `quay.io/example/pinned@${DIGEST}`, name: 'c1' },
    ]);
    expect(seen).toContain('GET /token?service=test&scope=repository%3Aexample%2Fop%3Apull');
  });

  it('says which image it could not resolve', async () => {
    await expect(pinImageDigests(csvWith([`${host}/example/missing:v1`]), collect([]), {})).rejects.toThrow(
      `--use-image-digests: cannot resolve ${host}/example/missing:v1 to a digest (the registry answered 404); check the image exists and the registry is reachable, or leave --use-image-digests out`,
    );
  });
});
