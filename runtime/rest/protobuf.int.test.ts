/**
 * The protobuf decoder against a real API server: for a varied set of built-in objects (times and
 * micro-times, quantities, int-or-strings, binary data, embedded JSON, inline structs, maps of
 * lists, a `__proto__` key) and for every object of every listable built-in resource the plane
 * holds, what the decoder makes of the server's protobuf equals what JSON.parse makes of its JSON
 * — for a GET, a LIST, a metadata-only LIST and a watch-list stream.
 */
import type { IncomingMessage } from 'node:http';
import { beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../apimachinery/model.js';
import { describeWithControlPlane } from '../testing/control-plane.js';
import { HttpStatusError, openRequest, requestDecoded, requestJSON } from './http.js';
import {
  decodeObject,
  decodeWatchEvent,
  FrameSplitter,
  isProtobuf,
  PROTOBUF_ACCEPT,
  protobufTable,
  type ProtobufTable,
} from './protobuf.js';

interface List {
  metadata?: { resourceVersion?: string };
  items: KubeObject[];
}

const keyOf = (o: KubeObject): string => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const sorted = (list: List): List =>
  list.items ? { ...list, items: [...list.items].sort((a, b) => keyOf(a).localeCompare(keyOf(b))) } : list;

function readBytes(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

describeWithControlPlane('rest: protobuf decoding equals JSON', { shared: true }, (env) => {
  let table: ProtobufTable;
  let ns: string;
  const kc = () => env.cp.kubeConfig;

  const getJSON = <T>(path: string, accept?: string): Promise<T> =>
    requestJSON<T>(kc(), { path, ...(accept ? { accept } : {}) });

  const getProtobuf = async (path: string, accept: string = PROTOBUF_ACCEPT.object): Promise<KubeObject> => {
    const res = await openRequest(kc(), { path, accept });
    const body = await readBytes(res);
    expect(res.statusCode, `${path}: ${body.toString('utf8').slice(0, 300)}`).toBe(200);
    expect(isProtobuf(res.headers['content-type']), `${path} answered ${res.headers['content-type']}`).toBe(true);
    return decodeObject(table, body);
  };

  const create = async (path: string, obj: Record<string, unknown>): Promise<KubeObject> =>
    requestJSON<KubeObject>(kc(), { method: 'POST', path, body: obj });

  beforeAll(async () => {
    table = await protobufTable();
    ns = await env.newNamespace();
    const core = `/api/v1/namespaces/${ns}`;
    const apps = `/apis/apps/v1/namespaces/${ns}`;
    const batch = `/apis/batch/v1/namespaces/${ns}`;
    const meta = (name: string) => ({ name, labels: { app: 'pb', tier: 'x' }, annotations: { note: 'é ✓ 日本' } });
    const podSpec = {
      containers: [
        {
          name: 'c',
          image: 'busybox',
          command: ['sh', '-c', 'sleep 1'],
          ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
          env: [
            { name: 'A', value: '' },
            { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '0.1', memory: '100M' } },
          readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 3 },
          livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 0 },
          securityContext: { runAsUser: 0, runAsNonRoot: false, readOnlyRootFilesystem: true },
        },
      ],
      volumes: [
        { name: 'cfg', configMap: { name: 'cm', defaultMode: 420, items: [{ key: 'a', path: 'a' }] } },
        { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
      ],
      terminationGracePeriodSeconds: 0,
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
    };
    await create(`${core}/pods`, { metadata: meta('pod'), spec: podSpec });
    await create(`${core}/configmaps`, {
      metadata: meta('cm'),
      data: { a: 'one', empty: '', ['__proto__']: 'not a prototype', 'multi.line': 'x\ny\n' },
      binaryData: { bin: Buffer.from([0, 1, 2, 255, 254]).toString('base64'), none: '' },
      immutable: false,
    });
    await create(`${core}/secrets`, {
      metadata: meta('secret'),
      type: 'Opaque',
      data: { key: Buffer.from([0xde, 0xad, 0xbe, 0xef, 0]).toString('base64'), blank: '' },
      stringData: { text: 'plain' },
    });
    await create(`${core}/services`, {
      metadata: meta('svc'),
      spec: {
        selector: { app: 'pb' },
        ports: [
          { name: 'a', port: 80, targetPort: 'http' },
          { name: 'b', port: 81, targetPort: 9090, protocol: 'UDP' },
        ],
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
      },
    });
    await create(`${core}/serviceaccounts`, { metadata: meta('sa'), automountServiceAccountToken: false });
    await create(`${core}/resourcequotas`, {
      metadata: meta('quota'),
      spec: { hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '2Gi' } },
    });
    await create(`${core}/limitranges`, {
      metadata: meta('limits'),
      spec: { limits: [{ type: 'Container', default: { cpu: '250m' }, max: { memory: '1Ti' } }] },
    });
    await create(`${core}/persistentvolumeclaims`, {
      metadata: meta('pvc'),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    await create(`${core}/events`, {
      metadata: meta('event'),
      involvedObject: { kind: 'Pod', name: 'pod', namespace: ns },
      reason: 'Tested',
      message: 'a protobuf test',
      type: 'Normal',
      count: 3,
      firstTimestamp: '2026-01-02T03:04:05Z',
      lastTimestamp: '2026-01-02T03:04:06Z',
      eventTime: '2026-01-02T03:04:05.123456Z',
      reportingComponent: 'test',
      reportingInstance: 'test-1',
      action: 'Test',
      series: { count: 2, lastObservedTime: '2026-01-02T03:04:07.000001Z' },
    });
    await create(`${apps}/deployments`, {
      metadata: meta('deploy'),
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'pb' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x'] }] },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: { metadata: { labels: { app: 'pb', tier: 'x' } }, spec: podSpec },
        progressDeadlineSeconds: 600,
      },
    });
    await create(`${apps}/statefulsets`, {
      metadata: meta('sts'),
      spec: {
        replicas: 0,
        serviceName: 'svc',
        selector: { matchLabels: { app: 'pb' } },
        template: { metadata: { labels: { app: 'pb', tier: 'x' } }, spec: podSpec },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
          },
        ],
      },
    });
    await create(`${apps}/controllerrevisions`, {
      metadata: meta('rev'),
      revision: 7,
      data: { spec: { nested: [1, 'two', { three: null }], ok: true } },
    });
    await create(`${batch}/jobs`, {
      metadata: meta('job'),
      spec: {
        backoffLimit: 2,
        activeDeadlineSeconds: 3600,
        suspend: true,
        template: { spec: { ...podSpec, restartPolicy: 'Never' } },
      },
    });
    await create(`${batch}/cronjobs`, {
      metadata: meta('cron'),
      spec: {
        schedule: '*/5 * * * *',
        timeZone: 'Etc/UTC',
        jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } },
      },
    });
    await create(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, {
      metadata: meta('lease'),
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: '2026-01-02T03:04:05.000000Z',
        renewTime: '2026-01-02T03:04:05.987654Z',
        leaseTransitions: 0,
      },
    });
    await create(`/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
      metadata: meta('event2'),
      eventTime: '2026-01-02T03:04:05.500000Z',
      reportingController: 'test.io/ctl',
      reportingInstance: 'i',
      action: 'Act',
      reason: 'Because',
      regarding: { kind: 'Pod', name: 'pod', namespace: ns },
      type: 'Warning',
      note: 'n',
    });
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      metadata: meta('role'),
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: meta('binding'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'role' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: ns }],
    });
    await create(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, {
      metadata: meta('pdb'),
      spec: { minAvailable: '50%', selector: { matchLabels: { app: 'pb' } } },
    });
    await create(`/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {
      metadata: meta('hpa'),
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'deploy' },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '100m' } } },
        ],
        behavior: {
          scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
        },
      },
    });
    await create(`/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`, {
      metadata: meta('netpol'),
      spec: {
        podSelector: {},
        ingress: [
          {
            ports: [{ port: 'http' }, { port: 53, protocol: 'UDP', endPort: 60 }],
            from: [{ ipBlock: { cidr: '10.0.0.0/8' } }],
          },
        ],
        policyTypes: ['Ingress'],
      },
    });
    await create(`/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`, {
      metadata: meta('ing'),
      spec: {
        rules: [
          {
            host: 'a.example.com',
            http: {
              paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }],
            },
          },
        ],
      },
    });
    await create(`/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, {
      metadata: meta('slice'),
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true, serving: false } }],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    });
    const suffix = ns;
    await create('/apis/scheduling.k8s.io/v1/priorityclasses', {
      metadata: meta(`prio-${suffix}`),
      value: -5,
      globalDefault: false,
      description: 'negative',
    });
    await create('/apis/storage.k8s.io/v1/storageclasses', {
      metadata: meta(`sc-${suffix}`),
      provisioner: 'example.com/none',
      parameters: { type: 'fast' },
      allowVolumeExpansion: true,
      mountOptions: ['ro'],
    });
    await create('/api/v1/persistentvolumes', {
      metadata: meta(`pv-${suffix}`),
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteMany'],
        hostPath: { path: '/tmp/pv', type: 'DirectoryOrCreate' },
        persistentVolumeReclaimPolicy: 'Retain',
      },
    });
    await create('/api/v1/nodes', {
      metadata: meta(`node-${suffix}`),
      spec: { podCIDR: '10.9.0.0/24', taints: [{ key: 'k', effect: 'NoExecute', timeAdded: '2026-01-02T03:04:05Z' }] },
    });
    await create('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: meta(`hook-${suffix}`),
      webhooks: [
        {
          name: 'a.example.com',
          clientConfig: { url: 'https://example.com/v', caBundle: Buffer.from('not a real bundle').toString('base64') },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 5,
          namespaceSelector: { matchLabels: { never: 'here' } },
        },
      ],
    });
    await create('/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', {
      metadata: meta(`fs-${suffix}`),
      spec: {
        priorityLevelConfiguration: { name: 'global-default' },
        matchingPrecedence: 9000,
        rules: [
          {
            subjects: [{ kind: 'Group', group: { name: 'nobody' } }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/x'] }],
          },
        ],
      },
    });
  });

  it('decodes each object of the varied set as its JSON reads', async () => {
    const core = `/api/v1/namespaces/${ns}`;
    const paths = [
      `${core}/pods/pod`,
      `${core}/configmaps/cm`,
      `${core}/secrets/secret`,
      `${core}/services/svc`,
      `${core}/serviceaccounts/sa`,
      `${core}/resourcequotas/quota`,
      `${core}/limitranges/limits`,
      `${core}/persistentvolumeclaims/pvc`,
      `${core}/events/event`,
      `/apis/apps/v1/namespaces/${ns}/deployments/deploy`,
      `/apis/apps/v1/namespaces/${ns}/statefulsets/sts`,
      `/apis/apps/v1/namespaces/${ns}/controllerrevisions/rev`,
      `/apis/batch/v1/namespaces/${ns}/jobs/job`,
      `/apis/batch/v1/namespaces/${ns}/cronjobs/cron`,
      `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/lease`,
      `/apis/events.k8s.io/v1/namespaces/${ns}/events/event2`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/role`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings/binding`,
      `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/pdb`,
      `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/hpa`,
      `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies/netpol`,
      `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/ing`,
      `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices/slice`,
      `/apis/scheduling.k8s.io/v1/priorityclasses/prio-${ns}`,
      `/apis/storage.k8s.io/v1/storageclasses/sc-${ns}`,
      `/api/v1/persistentvolumes/pv-${ns}`,
      `/api/v1/nodes/node-${ns}`,
      `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/hook-${ns}`,
      `/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/fs-${ns}`,
      `/api/v1/namespaces/${ns}`,
    ];
    for (const path of paths) {
      const json = await getJSON<KubeObject>(path);
      expect(await getProtobuf(path), path).toStrictEqual(json);
    }
    // The values with a JSON form of their own came through as such.
    const cm = await getProtobuf(`${core}/configmaps/cm`);
    expect(Object.getPrototypeOf(cm['data'])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(cm['data'], '__proto__')?.value).toBe('not a prototype');
    expect(cm['binaryData']).toEqual({ bin: 'AAEC//4=', none: '' });
    const lease = await getProtobuf(`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/lease`);
    expect(lease['spec']).toMatchObject({ renewTime: '2026-01-02T03:04:05.987654Z', leaseTransitions: 0 });
  });

  it('decodes every object of every listable built-in resource the plane holds, whole and metadata-only', async () => {
    const groups = await getJSON<{ groups: { preferredVersion: { groupVersion: string } }[] }>('/apis');
    const versions = ['v1', ...groups.groups.map((g) => g.preferredVersion.groupVersion)];
    let compared = 0;
    const unknown: string[] = [];
    const compareEveryList = async (): Promise<void> => {
      for (const gv of versions) {
        const base = gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
        const resources = await getJSON<{ resources: { name: string; kind: string; verbs: string[] }[] }>(base);
        for (const r of resources.resources) {
          if (r.name.includes('/') || !r.verbs.includes('list')) continue;
          if (!table.knows(gv, r.kind)) {
            unknown.push(`${gv}/${r.kind}`);
            continue;
          }
          const listPath = `${base}/${r.name}`;
          // Two reads of a computed list (componentstatuses) need not come in the same order.
          const json = sorted(await getJSON<List>(listPath));
          // The plane is shared and written meanwhile: the other three reads take the first one's
          // snapshot, so that a write between them changes none of the four.
          const rv = json.metadata?.resourceVersion;
          const path = rv ? `${listPath}?resourceVersion=${rv}&resourceVersionMatch=Exact` : listPath;
          const pb = sorted((await getProtobuf(path)) as unknown as List);
          expect({ ...pb, apiVersion: undefined, kind: undefined }, path).toStrictEqual({
            ...json,
            apiVersion: undefined,
            kind: undefined,
          });
          const metaJSON = sorted(
            await getJSON<List>(path, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'),
          );
          const metaPb = sorted((await getProtobuf(path, PROTOBUF_ACCEPT.metadataList)) as unknown as List);
          expect(metaPb, `${path} metadata-only`).toStrictEqual(metaJSON);
          compared += json.items.length + (metaJSON.items?.length ?? 0);
        }
      }
    };
    // Another writer on the plane throughout, as other test files are in CI: every list moves.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await create(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `moving-${i}` } });
      }
    })();
    try {
      await compareEveryList();
    } finally {
      writing = false;
      await writer;
    }
    // Every built-in kind the server serves at its preferred version is in the table but the two
    // that client-go's kubernetes scheme leaves to clientsets of their own (CRDs and APIServices,
    // which hold JSON schemas): those, and custom resources, are read as JSON.
    expect(unknown.sort()).toEqual([
      'apiextensions.k8s.io/v1/CustomResourceDefinition',
      'apiregistration.k8s.io/v1/APIService',
    ]);
    expect(compared).toBeGreaterThan(50);
  });

  it('requests a list decoded from protobuf, and an error with the Status the server sent in protobuf', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const list = await requestDecoded<List>(kc(), { path, accept: PROTOBUF_ACCEPT.object }, table);
    expect(sorted(list)).toStrictEqual(sorted(await getJSON<List>(path)));
    const missing = requestDecoded(kc(), { path: `${path}/absent`, accept: PROTOBUF_ACCEPT.object }, table);
    await expect(missing).rejects.toThrow(HttpStatusError);
    await expect(missing).rejects.toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "absent" not found',
    });
  });

  it('reads a watch-list stream as the JSON one reads', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
    const untilBookmark = async (accept: string, decode: (chunk: Buffer) => KubeObject[]): Promise<KubeObject[]> => {
      const ac = new AbortController();
      const res = await openRequest(kc(), { path, accept, signal: ac.signal });
      const events: KubeObject[] = [];
      try {
        for await (const chunk of res as AsyncIterable<Buffer>) {
          events.push(...decode(chunk));
          const last = events.at(-1) as { type?: string; object?: KubeObject } | undefined;
          if (last?.type === 'BOOKMARK' && last.object?.metadata?.annotations?.['k8s.io/initial-events-end']) break;
        }
      } finally {
        ac.abort();
        res.destroy();
      }
      return events;
    };
    let text = '';
    const json = await untilBookmark('application/json', (chunk) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n');
      text = lines.pop()!;
      return lines.filter(Boolean).map((l) => JSON.parse(l) as KubeObject);
    });
    const frames = new FrameSplitter();
    const pb = await untilBookmark(PROTOBUF_ACCEPT.watch, (chunk) =>
      frames.push(chunk).map((f) => decodeWatchEvent(table, f) as unknown as KubeObject),
    );
    expect(pb.length).toBeGreaterThan(1);
    // The bookmark's resourceVersion may differ between two streams; the objects may not.
    expect(pb.slice(0, -1)).toStrictEqual(json.slice(0, -1));
    expect(pb.at(-1)).toMatchObject({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1' } });
  });
});
