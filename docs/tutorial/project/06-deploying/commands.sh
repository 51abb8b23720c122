# Install the CRD into the cluster of your current kubeconfig context, and run the operator
# against it from your machine (webhooks off: the API server could not reach them here).
npm run install-crds
# The API server first accepts the CRD's names, then serves it; wait for both before using it.
kubectl wait crd/cronjobs.batch.tutorial.tsop.dev --for=jsonpath='{.status.acceptedNames.kind}'=CronJob --timeout=60s
kubectl wait crd/cronjobs.batch.tutorial.tsop.dev --for=condition=Established --timeout=60s
ENABLE_WEBHOOKS=false npm run run   # in a second terminal: it runs until Ctrl-C

# Create the sample CronJob, and wait for its first run (at the next full minute).
kubectl apply -k config/samples
kubectl wait cronjobs.batch.tutorial.tsop.dev/cronjob-sample --for=jsonpath='{.status.lastScheduleTime}' --timeout=150s
kubectl get cronjobs.batch.tutorial.tsop.dev,jobs

# Everything the operator needs in a cluster, in one file, with your image.
IMG=registry.example.com/cronjob-operator:0.1.0 npm run build-installer
