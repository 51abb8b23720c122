/**
 * The bundle-level checks operator-sdk runs on every bundle: operator-registry's format check of
 * the folder and annotations.yaml, object kinds registry+v1 can install, and
 * operator-framework/api's BundleValidator (owned CRDs present and defined, service accounts not
 * shadowing the CSV's, size limits).
 */
import type { Check } from '../check.js';
import { errInvalidBundle, gvkString, warnFailedValidation, warnInvalidBundle, type Finding } from '../finding.js';
import { SUPPORTED_KINDS } from '../../bundle.js';
import { list, obj, str } from '../../objects.js';

const MAX_BUNDLE_SIZE = 1 << 20;

function bytesInUnit(b: number): string {
  if (b < 1000) return `${b} B`;
  let div = 1000;
  let exp = 0;
  for (let n = Math.floor(b / 1000); n >= 1000; n = Math.floor(n / 1000)) {
    div *= 1000;
    exp++;
  }
  return `${(b / div).toFixed(1)} ${'kMGTPE'[exp]}B`;
}

function split(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

export const BUNDLE_CHECKS: Check[] = [
  {
    id: 'bundle-format',
    validator: 'operator-registry bundle format',
    level: 'Error',
    doc: 'the bundle has manifests/ and metadata/ folders and annotations.yaml has the required annotations',
    run: ({ bundle }) =>
      bundle.formatErrors.length === 0
        ? []
        : [
            {
              level: 'Error',
              type: 'BundleFormat',
              detail: `error validating format in ${bundle.shownDir}: Bundle validation errors: ${bundle.formatErrors.join(',')}`,
              plain: true,
            },
          ],
  },
  {
    id: 'bundle-object-kinds',
    validator: 'operator-registry bundle content',
    level: 'Error',
    doc: 'every object besides the CSV and CRDs is of a kind the registry+v1 format installs',
    run({ bundle }) {
      const out: Finding[] = [];
      for (const o of bundle.objects) {
        const kind = str(o['kind']);
        if (kind === 'ClusterServiceVersion' || kind === 'CustomResourceDefinition' || SUPPORTED_KINDS.has(kind))
          continue;
        const [group, version] = split(str(o['apiVersion']));
        out.push(
          errInvalidBundle(
            `unsupported media type ${bundle.mediaType} for bundle object`,
            gvkString(group, version, kind),
          ),
        );
      }
      return out;
    },
  },
  {
    id: 'bundle-owned-crds',
    validator: 'BundleValidator',
    level: 'Error',
    doc: 'every CRD the CSV owns is in the bundle, every CRD in the bundle is owned, none twice',
    run({ bundle }) {
      const csv = bundle.csv;
      if (!csv) return [];
      const out: Finding[] = [];
      const owned = list(obj(csv.spec['customresourcedefinitions'])['owned'])
        .map(obj)
        .map((d) => {
          const name = str(d['name']);
          const dot = name.indexOf('.');
          return { group: dot < 0 ? name : name.slice(dot + 1), version: str(d['version']), kind: str(d['kind']) };
        });
      const present = new Map<string, { group: string; version: string; kind: string }>();
      for (const crd of bundle.crds) {
        const spec = obj(crd['spec']);
        const kind = str(obj(spec['names'])['kind']);
        for (const v of list(spec['versions']).map(obj)) {
          const key = { group: str(spec['group']), version: str(v['name']), kind };
          const id = gvkString(key.group, key.version, key.kind);
          if (present.has(id)) out.push(errInvalidBundle(`duplicate CRD "${id}" in bundle "${bundle.name}"`, id));
          present.set(id, key);
        }
      }
      const ownedKinds = new Set<string>();
      for (const o of owned) {
        const id = gvkString(o.group, o.version, o.kind);
        if (!present.has(id)) out.push(errInvalidBundle(`owned CRD "${id}" not found in bundle "${bundle.name}"`, id));
        else {
          present.delete(id);
          ownedKinds.add(`${o.group}|${o.kind}`);
        }
      }
      for (const [id, key] of present) {
        if (ownedKinds.has(`${key.group}|${key.kind}`)) continue;
        out.push(errInvalidBundle(`CRD "${id}" is present in bundle "${bundle.name}" but not defined in CSV`, id));
      }
      return out;
    },
  },
  {
    id: 'bundle-service-accounts',
    validator: 'BundleValidator',
    level: 'Error',
    doc: "no ServiceAccount in the bundle has the name of one the CSV's Deployments run as",
    run({ bundle }) {
      const csv = bundle.csv;
      if (!csv) return [];
      const fromCsv = new Set(
        list(obj(obj(csv.spec['install'])['spec'])['deployments']).map((d) =>
          str(obj(obj(obj(obj(d)['spec'])['template'])['spec'])['serviceAccountName']),
        ),
      );
      return bundle.objects
        .filter(
          (o) =>
            o['kind'] === 'ServiceAccount' &&
            str(o['apiVersion']) === 'v1' &&
            fromCsv.has(str(obj(o['metadata'])['name'])),
        )
        .map((o) => {
          const name = str(obj(o['metadata'])['name']);
          return errInvalidBundle(
            [
              `invalid service account found in bundle. This service account ${name} in your bundle is not valid,`,
              `because a service account with the same name was already specified in your CSV. If this was`,
              `unintentional, please remove the service account manifest from your bundle. If it was intentional to`,
              `specify a separate service account, please rename the SA in either the bundle manifest or the CSV.`,
            ].join(' '),
            name,
          );
        });
    },
  },
  {
    id: 'bundle-size',
    validator: 'BundleValidator',
    level: 'Error or Warning',
    doc: 'the manifests gzipped stay under 1 MiB (warning from 85%)',
    run({ bundle }) {
      if (bundle.compressedSize === 0)
        return [warnFailedValidation('unable to check the bundle compressed size', bundle.name)];
      if (bundle.size === 0) return [warnFailedValidation('unable to check the bundle size', bundle.name)];
      const figures = `size=~${bytesInUnit(bundle.compressedSize)} , max=${bytesInUnit(MAX_BUNDLE_SIZE)}. Bundle uncompressed size is ${bytesInUnit(bundle.size)}`;
      if (bundle.compressedSize > MAX_BUNDLE_SIZE)
        return [errInvalidBundle(`maximum bundle compressed size with gzip size exceeded: ${figures}`, bundle.name)];
      if (bundle.compressedSize > MAX_BUNDLE_SIZE * 0.85)
        return [warnInvalidBundle(`nearing maximum bundle compressed size with gzip: ${figures}`, bundle.name)];
      return [];
    },
  },
];
