import { describe, expect, it } from 'vitest';
import { silenceLogs, rootLogger } from '../log/index.js';
import { defaultingHandler, validatingHandler, type CustomValidator } from './admission.js';
import { ConversionRegistry } from './conversion.js';
import { FieldError, ValidationError } from './errors.js';
import { applyPatch, type JsonPatchOperation } from './jsonpatch.js';
import { MalformedReviewError } from './review.js';
import { webhookPath } from './builder.js';

silenceLogs();
const ctx = { log: rootLogger(), signal: new AbortController().signal };
type Widget = { apiVersion: string; kind: string; metadata: { name: string }; spec: { size?: number; image?: string } };
const widget = (spec: Widget['spec']): Widget => ({
  apiVersion: 'demo.tsop.dev/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
const review = (operation: string, object?: unknown, oldObject?: unknown) => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'u-1',
    operation,
    kind: { group: 'demo.tsop.dev', version: 'v1', kind: 'Widget' },
    name: 'w',
    object,
    oldObject,
  },
});
type Answer = {
  response: {
    uid: string;
    allowed: boolean;
    patch?: string;
    patchType?: string;
    warnings?: string[];
    status?: { code?: number; reason?: string; message?: string; details?: { causes?: unknown[] } };
  };
};

describe('defaulting handler', () => {
  const handler = defaultingHandler<Widget>({
    default(obj) {
      obj.spec.size ??= 1;
      obj.spec.image ??= 'memcached:1.6';
    },
  });

  it('answers the JSON patch of what the defaulter changed', async () => {
    const before = widget({ size: 3 });
    const { status, body } = await handler(review('CREATE', before), ctx);
    const r = (body as Answer).response;
    expect(status).toBe(200);
    expect(r).toMatchObject({ uid: 'u-1', allowed: true, patchType: 'JSONPatch' });
    const ops = JSON.parse(Buffer.from(r.patch ?? '', 'base64').toString()) as JsonPatchOperation[];
    expect(ops).toEqual([{ op: 'add', path: '/spec/image', value: 'memcached:1.6' }]);
    expect(applyPatch(before, ops)).toEqual(widget({ size: 3, image: 'memcached:1.6' }));
  });

  it('answers no patch when nothing changed, and passes deletes', async () => {
    const full = await handler(review('CREATE', widget({ size: 2, image: 'x' })), ctx);
    expect((full.body as Answer).response.patch).toBeUndefined();
    const del = await handler(review('DELETE', null, widget({})), ctx);
    expect((del.body as Answer).response.allowed).toBe(true);
  });

  it('rejects a malformed review', async () => {
    await expect(handler({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, ctx)).rejects.toThrow(
      MalformedReviewError,
    );
    await expect(handler({ ...review('PATCH', {}) }, ctx)).rejects.toThrow(/operation "PATCH"/);
  });
});

describe('validating handler', () => {
  const validator: CustomValidator<Widget> = {
    validateCreate: (obj) =>
      (obj.spec.size ?? 0) > 10
        ? (() => {
            throw new ValidationError({ group: 'demo.tsop.dev', kind: 'Widget' }, obj.metadata.name, [
              new FieldError('spec.size', 'must be at most 10', obj.spec.size),
            ]);
          })()
        : ['size is large'],
    validateUpdate: (oldObj, newObj) => {
      if (newObj.spec.image !== oldObj.spec.image) throw new Error('image is immutable');
    },
    validateDelete: () => undefined,
  };
  const handler = validatingHandler(validator);

  it('denies with 422 Invalid, the API server style message and field causes', async () => {
    const r = ((await handler(review('CREATE', widget({ size: 11 })), ctx)).body as Answer).response;
    expect(r.allowed).toBe(false);
    expect(r.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Widget.demo.tsop.dev "w" is invalid: spec.size: Invalid value: 11: must be at most 10',
    });
    expect(r.status?.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: 11: must be at most 10', field: 'spec.size' },
    ]);
  });

  it('answers a review without the object its operation needs as malformed', async () => {
    await expect(handler(review('UPDATE', widget({})), ctx)).rejects.toThrow(
      'request.oldObject is missing from the UPDATE review',
    );
  });

  it('allows with warnings, and denies a plain error with 403 and its message only', async () => {
    const ok = ((await handler(review('CREATE', widget({ size: 2 })), ctx)).body as Answer).response;
    expect(ok).toMatchObject({ allowed: true, warnings: ['size is large'] });
    const denied = (
      (await handler(review('UPDATE', widget({ image: 'b' }), widget({ image: 'a' })), ctx)).body as Answer
    ).response;
    expect(denied.status).toMatchObject({ code: 403, reason: 'Forbidden', message: 'image is immutable' });
    expect(JSON.stringify(denied)).not.toMatch(/at .*\.ts/);
  });
});

describe('conversion registry', () => {
  const reg = new ConversionRegistry();
  reg.add({
    hub: { apiVersion: 'demo.tsop.dev/v2', kind: 'Widget' },
    spokes: [
      {
        kind: { apiVersion: 'demo.tsop.dev/v1', kind: 'Widget' },
        convertTo: (spoke: Widget, hub) =>
          void (hub['spec'] = { replicas: spoke.spec.size, image: { ref: spoke.spec.image } }),
        convertFrom: (hub, spoke: Widget) => {
          const s = hub['spec'] as { replicas?: number; image?: { ref?: string } };
          spoke.spec = { size: s.replicas, image: s.image?.ref };
        },
      },
    ],
  });

  it('converts spoke → hub → spoke without loss', () => {
    const v1 = widget({ size: 3, image: 'm' });
    const v2 = reg.convert(v1, 'demo.tsop.dev/v2');
    expect(v2).toEqual({
      apiVersion: 'demo.tsop.dev/v2',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { replicas: 3, image: { ref: 'm' } },
    });
    expect(reg.convert(v2, 'demo.tsop.dev/v1')).toEqual(v1);
  });

  it('answers a review with status Failure for an unknown version', async () => {
    const body = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'c', desiredAPIVersion: 'demo.tsop.dev/v9', objects: [widget({})] },
    };
    const r = (await reg.handler()(body, ctx)).body as {
      response: { result: { status: string; message: string }; convertedObjects: unknown[] };
    };
    expect(r.response.result.status).toBe('Failure');
    expect(r.response.result.message).toMatch(/demo.tsop.dev\/v9 is neither the hub/);
    expect(r.response.convertedObjects).toEqual([]);
  });
});

it("webhook paths are controller-gen's", () => {
  expect(webhookPath({ apiVersion: 'cache.example.com/v1alpha1', kind: 'Memcached' }, 'mutate')).toBe(
    '/mutate-cache-example-com-v1alpha1-memcached',
  );
  expect(webhookPath({ group: '', version: 'v1', kind: 'Pod' }, 'validate')).toBe('/validate--v1-pod');
});
