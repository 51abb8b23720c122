#!/usr/bin/env node
/**
 * Regenerates src/codegen/core/core-schemas.json: the schemas of the core Kubernetes types a CRD
 * may embed (a pod template, a job template, a label selector, …), converted from the OpenAPI v3
 * documents the Kubernetes project publishes in the k8s.io/kubernetes Go module
 * (api/openapi-spec/v3/): every type of k8s.io/api (io.k8s.api.*: V1Pod, V1Secret, V1Service, status
 * types, …) and of meta/v1 (V1OwnerReference, …), and what they reference. ROOTS below are the
 * types a CRD author plausibly embeds, recorded in the data; every api type is written either way.
 *
 *   node scripts/gen-core-schemas.mjs [--kube-version 1.36.3] [--out path]
 *
 * Needs `go` on PATH; the module comes from the Go module cache or GOPROXY.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientNames, collectReachable } from '../src/codegen/core/convert.mjs';
import { elementDoc, embedsAtomic, findField, goPackageOf, scanGoStructs } from '../src/codegen/core/go-markers.mjs';

const DEFAULT_KUBE_VERSION = '1.36.3';
const DEFAULT_OUT = fileURLToPath(new URL('../src/codegen/core/core-schemas.json', import.meta.url));

/** What a CRD author plausibly embeds (recorded as `roots`; every api type is written besides). */
const ROOTS = [
  // core/v1: the pod template and the pieces people embed on their own
  'io.k8s.api.core.v1.PodTemplateSpec',
  'io.k8s.api.core.v1.PodSpec',
  'io.k8s.api.core.v1.Container',
  'io.k8s.api.core.v1.Volume',
  'io.k8s.api.core.v1.ServiceSpec',
  'io.k8s.api.core.v1.ServicePort',
  'io.k8s.api.core.v1.PersistentVolumeClaim',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec',
  'io.k8s.api.core.v1.ObjectReference',
  'io.k8s.api.core.v1.TypedLocalObjectReference',
  'io.k8s.api.core.v1.SecretReference',
  // apps/v1 workload specs
  'io.k8s.api.apps.v1.DeploymentSpec',
  'io.k8s.api.apps.v1.StatefulSetSpec',
  'io.k8s.api.apps.v1.DaemonSetSpec',
  'io.k8s.api.apps.v1.ReplicaSetSpec',
  // batch/v1
  'io.k8s.api.batch.v1.JobTemplateSpec',
  'io.k8s.api.batch.v1.JobSpec',
  'io.k8s.api.batch.v1.CronJobSpec',
  // a few specs operators commonly wrap
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec',
  'io.k8s.api.networking.v1.IngressSpec',
  'io.k8s.api.networking.v1.NetworkPolicySpec',
  // meta/v1
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
];

/** Definitions client-node represents as a primitive (Date), so they get no client name. */
const NOT_CLASSES = new Set([
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
]);

function parseArgs(argv) {
  const opts = { kubeVersion: DEFAULT_KUBE_VERSION, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--kube-version' && value) opts.kubeVersion = value.replace(/^v/, '');
    else if (arg === '--out' && value) opts.out = value;
    else throw new Error(`usage: gen-core-schemas.mjs [--kube-version X.Y.Z] [--out path] (bad: ${arg})`);
    i++;
  }
  return opts;
}

/** A module's directory, downloading it through the Go module proxy when not cached. */
function moduleDir(modulePath, version) {
  const out = execFileSync('go', ['mod', 'download', '-json', `${modulePath}@${version}`], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const info = JSON.parse(out);
  if (info.Error || !info.Dir) throw new Error(`go mod download: ${info.Error ?? 'no Dir reported'}`);
  return info.Dir;
}

/** Every definition of every v3 document, keeping each copy (shared types appear repeatedly). */
function readDefinitions(specDir) {
  const all = new Map();
  for (const file of readdirSync(specDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(join(specDir, file), 'utf8'));
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      const list = all.get(name) ?? [];
      list.push(schema);
      all.set(name, list);
    }
  }
  return all;
}

/**
 * What the Go source of the staging modules (k8s.io/api, k8s.io/apimachinery, which carry the
 * kube minor and patch version as v0.X.Y) says: default markers, doc comments with their line
 * breaks, inherited atomicity. Packages are read on first use.
 */
function goSourceFacts(kubeVersion) {
  const stagingVersion = `v0.${kubeVersion.split('.').slice(1).join('.')}`;
  const modules = new Map();
  const packages = new Map();
  const structsOf = (importPath) => {
    let structs = packages.get(importPath);
    if (structs !== undefined) return structs;
    const [, repo, ...rest] = importPath.split('/');
    const modulePath = `k8s.io/${repo}`;
    if (!modules.has(modulePath)) modules.set(modulePath, moduleDir(modulePath, stagingVersion));
    const dir = join(modules.get(modulePath), ...rest);
    const files = readdirSync(dir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
    structs = scanGoStructs(files.sort().map((f) => readFileSync(join(dir, f), 'utf8')));
    packages.set(importPath, structs);
    return structs;
  };
  const lookup = (definition) => {
    const pkg = goPackageOf(definition);
    if (pkg === undefined) throw new Error(`no Go package known for ${definition}`);
    const structs = structsOf(pkg.importPath);
    // A few meta/v1 definitions (Patch, Time-like wrappers) are not plain structs the scanner
    // reads; their OpenAPI text is all there is, so they get no Go facts.
    if (!structs.has(pkg.type)) return undefined;
    return { structs, type: pkg.type };
  };
  return {
    hasDefault(definition, property) {
      const at = lookup(definition);
      return at !== undefined && findField(at.structs, at.type, property, structsOf)?.hasDefault === true;
    },
    fieldDoc(definition, property) {
      const at = lookup(definition);
      return at && findField(at.structs, at.type, property, structsOf)?.doc;
    },
    fieldValidations(definition, property) {
      const at = lookup(definition);
      return at && findField(at.structs, at.type, property, structsOf)?.validations;
    },
    elementDoc(definition, property) {
      const at = lookup(definition);
      return at && elementDoc(at.structs, at.type, property, structsOf);
    },
    typeDoc(definition) {
      const at = lookup(definition);
      return at?.structs.get(at.type)?.doc;
    },
    embedsAtomic(definition) {
      const at = lookup(definition);
      return at !== undefined && embedsAtomic(at.structs, at.type);
    },
  };
}

/** One definition per line: small, sorted and friendly to `git diff`. */
function render(data) {
  const defs = Object.entries(data.definitions).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return (
    '{\n' +
    `"source":${JSON.stringify(data.source)},\n` +
    `"roots":${JSON.stringify(data.roots)},\n` +
    `"clientNames":${JSON.stringify(data.clientNames)},\n` +
    `"definitions":{\n${defs.join(',\n')}\n}\n}\n`
  );
}

function main() {
  const { kubeVersion, out } = parseArgs(process.argv.slice(2));
  const specDir = join(moduleDir('k8s.io/kubernetes', `v${kubeVersion}`), 'api', 'openapi-spec', 'v3');
  const all = readDefinitions(specDir);
  const facts = goSourceFacts(kubeVersion);
  const everyApiType = [...all.keys()].filter((n) => /^io\.k8s\.(api\.|apimachinery\.pkg\.apis\.meta\.v1\.)/.test(n));
  const definitions = collectReachable(
    [...new Set([...ROOTS, ...everyApiType])].sort(),
    (name) => all.get(name) ?? [],
    facts,
  );
  const names = clientNames(all.keys());
  const byClient = {};
  for (const def of Object.keys(definitions).sort()) {
    // Time and MicroTime are Date in client-node, not classes; users write the runtime's Time
    if (NOT_CLASSES.has(def)) continue;
    const client = names.get(def);
    if (client !== undefined) byClient[client] = def;
  }
  const sortedClient = Object.fromEntries(Object.entries(byClient).sort(([a], [b]) => (a < b ? -1 : 1)));
  const data = {
    source: `k8s.io/kubernetes@v${kubeVersion} api/openapi-spec/v3`,
    roots: [...ROOTS].sort(),
    clientNames: sortedClient,
    definitions,
  };
  const text = render(data);
  writeFileSync(out, text);
  console.log(
    `wrote ${out}: ${Object.keys(definitions).length} definitions, ` +
      `${Object.keys(sortedClient).length} client names, ${text.length} bytes`,
  );
}

main();
