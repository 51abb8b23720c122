/**
 * The Go package each runtime module stands for, shown on the runtime reference's index and at
 * the top of each module page. A module re-exported by runtime/index.ts without a line here fails
 * the book's build (generate.ts), so the index never has a blank row.
 */
export const COUNTERPARTS: Readonly<Record<string, string>> = {
  apimachinery: '`k8s.io/apimachinery` (`runtime.Object`, `schema.GroupVersionKind`, `types.NamespacedName`)',
  builder: '`pkg/builder` (`ctrl.NewControllerManagedBy`)',
  cache: '`pkg/cache` and client-go `tools/cache` (informers, indexers)',
  certs: "`pkg/certwatcher`, and envtest's certificate helpers",
  client: '`pkg/client` and `apimachinery/pkg/api/errors`',
  conditions: '`apimachinery/pkg/api/meta` (`SetStatusCondition`, `FindStatusCondition`)',
  controller: '`pkg/controller` and `pkg/internal/controller`',
  controllerutil: '`pkg/controller/controllerutil`',
  events: 'client-go `tools/events` (`EventRecorder`)',
  handler: '`pkg/handler`',
  kubeconfig: 'client-go `tools/clientcmd` and `pkg/client/config`',
  leaderelection: 'client-go `tools/leaderelection` and `pkg/leaderelection`',
  log: '`pkg/log` (logr)',
  manager: '`pkg/manager` (`ctrl.NewManager`, `mgr.Start`)',
  markers: "controller-tools' `+kubebuilder` markers",
  metrics: '`pkg/metrics` and `pkg/metrics/server`',
  predicate: '`pkg/predicate` and `pkg/event`',
  queue: 'client-go `util/workqueue`',
  reconcile: '`pkg/reconcile`',
  rest: 'client-go `rest` and `transport`',
  restmapper: 'client-go `restmapper` and apimachinery `meta.RESTMapper`',
  shapes: 'none: what the runtime and the tsop CLI share',
  sharding: 'none: controller-runtime runs one active replica',
  tracing: "client-go's and controller-runtime's OpenTelemetry hooks",
  webhook: '`pkg/webhook`, `pkg/webhook/admission`, `pkg/webhook/conversion`',
};
