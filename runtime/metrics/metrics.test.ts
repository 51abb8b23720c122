import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { newWorkQueue } from '../queue/index.js';
import { runtimeMetrics } from './index.js';

describe('runtime metrics', () => {
  it('creates the families once per registry', () => {
    const reg = new Registry();
    expect(runtimeMetrics(reg)).toBe(runtimeMetrics(reg));
    expect(runtimeMetrics(new Registry())).not.toBe(runtimeMetrics(reg));
  });

  it('pre-creates every controller series at zero with controller-runtime names and labels', async () => {
    const m = runtimeMetrics(new Registry());
    const rec = m.controller.forController('widget', 4);
    rec.outcome('requeue_after');
    rec.reconcileTime(0.02);
    const text = await m.registry.metrics();
    for (const line of [
      'controller_runtime_reconcile_total{controller="widget",result="success"} 0',
      'controller_runtime_reconcile_total{controller="widget",result="error"} 0',
      'controller_runtime_reconcile_total{controller="widget",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="widget",result="requeue_after"} 1',
      'controller_runtime_reconcile_errors_total{controller="widget"} 0',
      'controller_runtime_terminal_reconcile_errors_total{controller="widget"} 0',
      'controller_runtime_reconcile_panics_total{controller="widget"} 0',
      'controller_runtime_max_concurrent_reconciles{controller="widget"} 4',
      'controller_runtime_active_workers{controller="widget"} 0',
      'controller_runtime_reconcile_time_seconds_bucket{le="0.025",controller="widget"} 1',
      'controller_runtime_reconcile_time_seconds_count{controller="widget"} 1',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('implements the queue metrics hook, sampling in-flight work at scrape time', async () => {
    const m = runtimeMetrics(new Registry());
    const q = newWorkQueue({ name: 'widget', metrics: m.workqueue.forQueue('widget') });
    q.add('a');
    q.add('b');
    q.add('a'); // folded: not counted as an add
    let text = await m.registry.metrics();
    expect(text).toContain('workqueue_depth{controller="widget",name="widget"} 2');
    expect(text).toContain('workqueue_adds_total{controller="widget",name="widget"} 2');
    const key = await q.get();
    await new Promise((r) => setTimeout(r, 20));
    text = await m.registry.metrics();
    expect(text).toContain('workqueue_depth{controller="widget",name="widget"} 1');
    const longest = /workqueue_longest_running_processor_seconds\{controller="widget",name="widget"\} ([0-9.e-]+)/.exec(
      text,
    );
    expect(Number(longest?.[1])).toBeGreaterThanOrEqual(0.015);
    expect(text).toContain('workqueue_queue_duration_seconds_count{controller="widget",name="widget"} 1');
    q.done(key!);
    q.addRateLimited('c');
    text = await m.registry.metrics();
    expect(text).toContain('workqueue_work_duration_seconds_count{controller="widget",name="widget"} 1');
    expect(text).toContain('workqueue_retries_total{controller="widget",name="widget"} 1');
    expect(text).toContain('workqueue_unfinished_work_seconds{controller="widget",name="widget"} 0');
    q.shutDown();
  });

  it('counts REST requests by code, method and host, and leader status by lease name', async () => {
    const m = runtimeMetrics(new Registry());
    m.restClient.observe('200', 'get', '127.0.0.1:6443');
    m.restClient.observe('200', 'GET', '127.0.0.1:6443');
    m.restClient.observe('409', 'PUT', '127.0.0.1:6443');
    m.restClient.duration(0.03, 'get', '127.0.0.1:6443');
    m.leaderElection.setLeading('my-lease', true);
    const text = await m.registry.metrics();
    expect(text).toContain('rest_client_request_duration_seconds_bucket{le="0.1",verb="GET",host="127.0.0.1:6443"} 1');
    expect(text).toContain(
      'rest_client_request_duration_seconds_bucket{le="0.025",verb="GET",host="127.0.0.1:6443"} 0',
    );
    expect(text).toContain('rest_client_requests_total{code="200",method="GET",host="127.0.0.1:6443"} 2');
    expect(text).toContain('rest_client_requests_total{code="409",method="PUT",host="127.0.0.1:6443"} 1');
    expect(text).toContain('leader_election_master_status{name="my-lease"} 1');
  });
});
