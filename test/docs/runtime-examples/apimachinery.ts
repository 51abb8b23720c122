/** A typed kind for your own resource, and the keys and copies every layer passes around. */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import {
  deepCopy,
  gvkOf,
  kindFor,
  objectKeyString,
} from '../../../runtime/apimachinery/index.js';

export interface Memcached {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: { size?: number };
}

// What the client, the builder and the cache take to know which resource you
// mean.
export const memcachedKind = kindFor<Memcached>({
  group: 'cache.example.com',
  version: 'v1alpha1',
  kind: 'Memcached',
});

const cache: Memcached = {
  apiVersion: 'cache.example.com/v1alpha1',
  kind: 'Memcached',
  metadata: { namespace: 'shop', name: 'sessions' },
};
console.log(objectKeyString(cache)); // shop/sessions
console.log(gvkOf(cache).group); // cache.example.com

// change the copy, never what the cache handed you
const edited = deepCopy(cache);
edited.spec = { size: 3 };
