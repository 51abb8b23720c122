/**
 * The Memo kind of the webhook acceptance tests: a defaulter (size 1, a default image), a
 * validator (size at most 10, a warning for size above 5, no delete while labelled protected=true) and the v1 ⇄ v2 (hub) converters.
 */
import type { KubeObject } from '../../apimachinery/index.js';
import { FieldError, ValidationError, type CustomDefaulter, type CustomValidator, type HubAndSpokes, type Warnings } from '../../webhook/index.js';

export const MEMO_V1 = { apiVersion: 'webhooks.fixtures.tsop.dev/v1', kind: 'Memo' } as const;
export const MEMO_V2 = { apiVersion: 'webhooks.fixtures.tsop.dev/v2', kind: 'Memo' } as const;
export const MEMO_GK = { group: 'webhooks.fixtures.tsop.dev', kind: 'Memo' };
export const DEFAULT_IMAGE = 'memcached:1.6.26-alpine3.19';

export interface MemoV1 extends KubeObject {
  spec?: { size?: number; image?: string };
}
export interface MemoV2 extends KubeObject {
  spec?: { replicas?: number; image?: { repository?: string; tag?: string } };
}

export class MemoDefaulter implements CustomDefaulter<MemoV1> {
  default(obj: MemoV1): void {
    obj.spec ??= {};
    obj.spec.size ??= 1;
    obj.spec.image ??= DEFAULT_IMAGE;
  }
}

export class MemoValidator implements CustomValidator<MemoV1> {
  validateCreate(obj: MemoV1): Warnings {
    return this.validate(obj);
  }
  validateUpdate(_old: MemoV1, obj: MemoV1): Warnings {
    return this.validate(obj);
  }
  validateDelete(obj: MemoV1): Warnings {
    if (obj.metadata?.labels?.['protected'] === 'true') throw new Error(`memo ${obj.metadata.name ?? ''} is protected; remove the label protected=true first`);
    return undefined;
  }
  private validate(obj: MemoV1): Warnings {
    const size = obj.spec?.size ?? 0;
    if (size > 10) throw new ValidationError(MEMO_GK, obj.metadata?.name ?? '', [new FieldError('spec.size', 'must be at most 10', size)]);
    return size > 5 ? [`spec.size ${size} is more than 5 replicas; memcached rarely needs that many`] : [];
  }
}

function splitImage(image: string | undefined): { repository?: string; tag?: string } | undefined {
  if (image === undefined) return undefined;
  const at = image.lastIndexOf(':');
  return at < 0 ? { repository: image } : { repository: image.slice(0, at), tag: image.slice(at + 1) };
}

export const memoConversion: HubAndSpokes = {
  hub: MEMO_V2,
  spokes: [
    {
      kind: MEMO_V1,
      convertTo(spoke: MemoV1, hub: MemoV2) {
        hub.spec = { replicas: spoke.spec?.size, image: splitImage(spoke.spec?.image) };
      },
      convertFrom(hub: MemoV2, spoke: MemoV1) {
        const img = hub.spec?.image;
        spoke.spec = { size: hub.spec?.replicas, image: img ? (img.tag ? `${img.repository ?? ''}:${img.tag}` : img.repository) : undefined };
      },
    },
  ],
};
