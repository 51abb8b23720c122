/**
 * Where the API reference links types that are not the project's own: the scalar types of the
 * runtime's markers module and the embedded Kubernetes types, to their Go documentation (the types
 * they stand for), as crd-ref-docs links Go projects' imported types.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnownTypeName } from '../codegen/model.js';
import { TSOP_ROOT } from '../version.js';

const GO_DOC = 'https://pkg.go.dev/';

const KNOWN: Readonly<Record<KnownTypeName, { text: string; url?: string }>> = {
  int32: { text: 'integer (int32)' },
  int64: { text: 'integer (int64)' },
  Quantity: { text: 'Quantity', url: `${GO_DOC}k8s.io/apimachinery/pkg/api/resource#Quantity` },
  IntOrString: { text: 'IntOrString', url: `${GO_DOC}k8s.io/apimachinery/pkg/util/intstr#IntOrString` },
  Time: { text: 'Time', url: `${GO_DOC}k8s.io/apimachinery/pkg/apis/meta/v1#Time` },
  MicroTime: { text: 'MicroTime', url: `${GO_DOC}k8s.io/apimachinery/pkg/apis/meta/v1#MicroTime` },
  Duration: { text: 'Duration', url: `${GO_DOC}k8s.io/apimachinery/pkg/apis/meta/v1#Duration` },
  RawExtension: { text: 'RawExtension', url: `${GO_DOC}k8s.io/apimachinery/pkg/runtime#RawExtension` },
  JSONValue: { text: 'JSON', url: `${GO_DOC}k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1#JSON` },
  Condition: { text: 'Condition', url: `${GO_DOC}k8s.io/apimachinery/pkg/apis/meta/v1#Condition` },
  ObjectMeta: { text: 'ObjectMeta', url: `${GO_DOC}k8s.io/apimachinery/pkg/apis/meta/v1#ObjectMeta` },
  Bytes: { text: 'bytes (base64)' },
};

export function knownTypeLink(name: KnownTypeName): { text: string; url?: string } {
  return KNOWN[name];
}

// Same file the schema builder embeds core types from (shipped in the package).
const CORE_DATA = join(TSOP_ROOT, 'src/codegen/core/core-schemas.json');
let coreNames: Record<string, string> | undefined;

/**
 * A @kubernetes/client-node class name (`V1PodTemplateSpec`) → its Go type's documentation
 * (`k8s.io/api/core/v1#PodTemplateSpec`), through the OpenAPI definition name the data file records.
 */
export function coreTypeLink(clientName: string): { text: string; url?: string } {
  coreNames ??= (JSON.parse(readFileSync(CORE_DATA, 'utf8')) as { clientNames: Record<string, string> }).clientNames;
  const definition = coreNames[clientName];
  const m = definition ? /^io\.k8s\.(.+)\.([^.]+)$/.exec(definition) : null;
  if (!m) return { text: clientName };
  return { text: m[2] ?? clientName, url: `${GO_DOC}k8s.io/${(m[1] ?? '').replace(/\./g, '/')}#${m[2] ?? ''}` };
}
