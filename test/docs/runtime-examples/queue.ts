/** The work queue a controller drains: a key is never handed out twice at once, and repeats fold into one. */
import { newWorkQueue } from '../../../runtime/queue/index.js';

const queue = newWorkQueue();
queue.add('shop/sessions');
queue.add('shop/sessions'); // folded into the first
queue.add('shop/carts');

for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
  try {
    console.log('reconcile', key);
    queue.forget(key); // success: reset its backoff
  } catch {
    queue.addRateLimited(key); // failure: again later, with exponential backoff
  } finally {
    queue.done(key);
  }
  if (queue.len() === 0) queue.shutDown();
}
