/**
 * What kwok's fake nodes do, as kwok Stage documents (kwok.x-k8s.io/v1alpha1): a stage selects
 * objects by jq-style expressions and, after an optional delay, patches their status from a Go
 * template, or deletes them. Kept in TypeScript rather than a YAML file because only .ts files
 * are embedded into generated projects.
 *
 * The rules, in the order an object meets them:
 * - a node becomes Ready with room for many pods, and stays Ready (kwok renews its Lease);
 * - a scheduled pod starts Running and Ready, with a pod IP from its node's podCIDR;
 * - a running pod marked not Ready by someone else is made Ready again, as a kubelet reports its
 *   containers on its next sync: kube-controller-manager marks every pod of a node not Ready when
 *   the node misses its heartbeats (kwok starved of CPU on a busy machine), and without this the
 *   pods, and the Deployments waiting on them, would stay unready after the node is back;
 * - a one-shot pod (restartPolicy Never or OnFailure: what Jobs and run-to-completion pods use)
 *   then succeeds after ONE_SHOT_RUN_MS, every container terminated with exit code 0;
 *   pods with restartPolicy Always (Deployments, StatefulSets, DaemonSets) run until deleted;
 * - a pod being deleted is removed at once (grace period 0), after its finalizers, if any, are
 *   removed by whoever owns them, as a kubelet would leave them.
 */

/** How long a one-shot pod runs before it reports Succeeded. */
export const ONE_SHOT_RUN_MS = 1000;

/** The annotation (and its value) that marks the nodes kwok manages. */
export const FAKE_NODE_ANNOTATION = { key: 'kwok.x-k8s.io/node', value: 'fake' } as const;

const nodeReady = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: tsop-node-ready
spec:
  resourceRef: { apiGroup: v1, kind: Node }
  selector:
    matchExpressions:
    - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
      operator: NotIn
      values: ['True']
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      {{ range NodeConditions }}
      - type: {{ .type | Quote }}
        status: {{ .status | Quote }}
        reason: {{ .reason | Quote }}
        message: {{ .message | Quote }}
        lastHeartbeatTime: {{ $now | Quote }}
        lastTransitionTime: {{ $now | Quote }}
      {{ end }}
      addresses:
      - type: InternalIP
        address: {{ NodeIP | Quote }}
      - type: Hostname
        address: {{ .metadata.name | Quote }}
      capacity: { cpu: "64", memory: 256Gi, pods: "1000" }
      allocatable: { cpu: "64", memory: 256Gi, pods: "1000" }
      nodeInfo:
        architecture: amd64
        operatingSystem: linux
        kubeletVersion: {{ printf "kwok-%s" Version | Quote }}
        kubeProxyVersion: {{ printf "kwok-%s" Version | Quote }}
        containerRuntimeVersion: {{ printf "kwok-%s" Version | Quote }}
        kernelVersion: {{ printf "kwok-%s" Version | Quote }}
        machineID: ""
        systemUUID: ""
        bootID: ""
        osImage: ""
      phase: Running
`;

/** A started pod's conditions, all True (readiness gates too), as a kubelet reports them; `$now` is the stage's time. */
const readyConditions = `      conditions:
      {{ range list "PodReadyToStartContainers" "Initialized" "ContainersReady" "Ready" }}
      - type: {{ . }}
        status: "True"
        lastTransitionTime: {{ $now | Quote }}
      {{ end }}
      {{ range .spec.readinessGates }}
      - type: {{ .conditionType | Quote }}
        status: "True"
        lastTransitionTime: {{ $now | Quote }}
      {{ end }}`;

const podRunning = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: tsop-pod-running
spec:
  resourceRef: { apiGroup: v1, kind: Pod }
  selector:
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: DoesNotExist }
    - { key: .spec.nodeName, operator: Exists }
    - { key: .status.podIP, operator: DoesNotExist }
  next:
    statusTemplate: |
      {{ $now := Now }}
      phase: Running
      startTime: {{ $now | Quote }}
      hostIP: {{ NodeIPWith .spec.nodeName | Quote }}
      podIP: {{ PodIPWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) | Quote }}
${readyConditions}
      initContainerStatuses:
      {{ range .spec.initContainers }}
      - name: {{ .name | Quote }}
        image: {{ .image | Quote }}
        ready: true
        restartCount: 0
        state: { terminated: { exitCode: 0, reason: Completed, startedAt: {{ $now | Quote }}, finishedAt: {{ $now | Quote }} } }
      {{ end }}
      containerStatuses:
      {{ range .spec.containers }}
      - name: {{ .name | Quote }}
        image: {{ .image | Quote }}
        ready: true
        started: true
        restartCount: 0
        state: { running: { startedAt: {{ $now | Quote }} } }
      {{ end }}
`;

const podReadyAgain = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: tsop-pod-ready-again
spec:
  resourceRef: { apiGroup: v1, kind: Pod }
  selector:
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: DoesNotExist }
    - { key: .status.phase, operator: In, values: [Running] }
    - { key: .status.podIP, operator: Exists }
    - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
      operator: NotIn
      values: ['True']
  next:
    statusTemplate: |
      {{ $now := Now }}
${readyConditions}
`;

const podSucceeded = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: tsop-pod-succeeded
spec:
  resourceRef: { apiGroup: v1, kind: Pod }
  selector:
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: DoesNotExist }
    - { key: .status.phase, operator: In, values: [Running] }
    - { key: .spec.restartPolicy, operator: In, values: [Never, OnFailure] }
  delay:
    durationMilliseconds: ${ONE_SHOT_RUN_MS}
  next:
    statusTemplate: |
      {{ $now := Now }}
      phase: Succeeded
      conditions:
      {{ range list "ContainersReady" "Ready" }}
      - type: {{ . }}
        status: "False"
        reason: PodCompleted
        lastTransitionTime: {{ $now | Quote }}
      {{ end }}
      containerStatuses:
      {{ range .spec.containers }}
      - name: {{ .name | Quote }}
        image: {{ .image | Quote }}
        ready: false
        started: false
        restartCount: 0
        state: { terminated: { exitCode: 0, reason: Completed, startedAt: {{ $now | Quote }}, finishedAt: {{ $now | Quote }} } }
      {{ end }}
`;

const podDeleted = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: tsop-pod-deleted
spec:
  resourceRef: { apiGroup: v1, kind: Pod }
  selector:
    matchExpressions:
    - { key: .metadata.deletionTimestamp, operator: Exists }
  next:
    delete: true
`;

/** kwok's --config file: the stages above, as one multi-document YAML. */
export function kwokConfig(): string {
  return [nodeReady, podRunning, podReadyAgain, podSucceeded, podDeleted].join('---\n');
}
