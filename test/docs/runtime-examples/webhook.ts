/** Default and validate a kind on admission, served by the manager's webhook server. */
import type { Manager } from '../../../runtime/manager/index.js';
import {
  FieldError,
  ValidationError,
  webhookFor,
} from '../../../runtime/webhook/index.js';
import { type Memcached, memcachedKind } from './apimachinery.js';

export function setupWebhook(mgr: Manager): void {
  webhookFor<Memcached>(mgr, memcachedKind)
    .withDefaulter({
      default: (obj) => {
        obj.spec ??= {};
        obj.spec.size ??= 1;
      },
    })
    .withValidator({
      validateCreate: (obj) => check(obj),
      validateUpdate: (_old, obj) => check(obj),
      validateDelete: () => [],
    })
    .complete();
}

function check(obj: Memcached): string[] {
  const size = obj.spec?.size ?? 1;
  if (size > 10)
    throw new ValidationError(
      { group: 'cache.example.com', kind: 'Memcached' },
      obj.metadata?.name ?? '',
      [new FieldError('spec.size', 'must be at most 10', size)],
    );
  // warnings
  return size > 5 ? [`spec.size ${size}: more than 5 pods rarely helps`] : [];
}
