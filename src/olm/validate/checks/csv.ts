/**
 * ClusterServiceVersionValidator: names, examples, install modes, minKubeVersion, required
 * fields, case-sensitive annotation names, apiVersion and kind.
 */
import type { Check } from '../check.js';
import {
  errFieldMissing,
  errFailedValidation,
  errInvalidOperation,
  errInvalidParse,
  gvkString,
  invalidCsv,
  warnInvalidOperation,
  warnPropertiesAnnotation,
  type Finding,
} from '../finding.js';
import { parseSemver } from '../../semver.js';
import { isObj, list, obj, str, type Obj } from '../../objects.js';
import type { Csv } from '../../csv.js';
import { dns1123SubdomainProblems, labelValueProblems } from './names.js';

export const MIN_KUBE_VERSION_WARNING = [
  'csv.Spec.minKubeVersion is not informed. It is recommended you provide this information. Otherwise,',
  'it would mean that your operator project can be distributed and installed in any cluster version',
  'available, which is not necessarily the case for all projects.',
].join(' ');

const csvOf = (c: { bundle: { csv?: Csv } }): Csv | undefined => c.bundle.csv;
const nameOf = (csv: Csv): string => str(obj(csv.metadata)['name']);

function nameProblems(name: string): string | undefined {
  const problems = [...dns1123SubdomainProblems(name), ...labelValueProblems(name)];
  return problems.length > 0 ? `"${name}" is invalid: ${problems.join(',')}` : undefined;
}

const CASE_SENSITIVE = [
  'olm.operatorGroup',
  'olm.operatorNamespace',
  'olm.targetNamespaces',
  'olm.providedAPIs',
  'olm.skipRange',
];

/** The `group/version/kind` keys of the APIs the CSV owns. */
function providedApis(csv: Csv, out: Finding[]): Set<string> {
  const provided = new Set<string>();
  for (const owned of list(obj(csv.spec['customresourcedefinitions'])['owned']).map(obj)) {
    const name = str(owned['name']);
    const dot = name.indexOf('.');
    if (dot < 0) {
      out.push(errInvalidParse(`couldn't parse plural.group from crd name: ${name}`));
      continue;
    }
    provided.add(`${name.slice(dot + 1)}|${str(owned['version'])}|${str(owned['kind'])}`);
  }
  for (const api of list(obj(csv.spec['apiservicedefinitions'])['owned']).map(obj))
    provided.add(`${str(api['group'])}|${str(api['version'])}|${str(api['kind'])}`);
  return provided;
}

const gvkOfKey = (key: string): string => {
  const [g, v, k] = key.split('|');
  return gvkString(g!, v!, k!);
};

export const CSV_CHECKS: Check[] = [
  {
    id: 'csv-name',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error',
    doc: 'metadata.name and spec.replaces are DNS-1123 subdomains and valid label values',
    run({ bundle }) {
      const csv = csvOf({ bundle });
      if (!csv) return [];
      const out: Finding[] = [];
      const bad = nameProblems(nameOf(csv));
      if (bad) out.push(invalidCsv('Error', `metadata.name ${bad}`, nameOf(csv)));
      const replaces = str(csv.spec['replaces']);
      const badReplaces = replaces === '' ? undefined : nameProblems(replaces);
      if (badReplaces) out.push(invalidCsv('Error', `spec.replaces ${badReplaces}`, nameOf(csv)));
      return out;
    },
  },
  {
    id: 'csv-examples',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error or Warning',
    doc: 'alm-examples is valid JSON; each example is of an owned API (error) and each owned API has one (warning)',
    run({ bundle }) {
      const csv = csvOf({ bundle });
      if (!csv) return [];
      const annotations = obj(csv.metadata.annotations);
      const name = nameOf(csv);
      if (Object.keys(annotations).length === 0) return [invalidCsv('Warning', 'annotations not found', name)];
      const alm = annotations['alm-examples'];
      const olm = annotations['olm.examples'];
      if (alm === undefined && olm === undefined) return [invalidCsv('Warning', 'example annotations not found', name)];
      const out: Finding[] = [];
      if (alm !== undefined && olm !== undefined)
        out.push(
          invalidCsv(
            'Warning',
            'both `alm-examples` and `olm.examples` are present. Checking only `alm-examples`',
            name,
          ),
        );
      const text = String(alm ?? olm);
      let examples: unknown = [];
      if (text !== '') {
        try {
          examples = JSON.parse(text);
        } catch (error) {
          out.push(errInvalidParse('invalid example', jsonProblem(text, error as Error)));
          return out;
        }
      }
      if (!Array.isArray(examples)) {
        out.push(
          errInvalidParse(
            'error decoding example CustomResource',
            'json: cannot unmarshal object into Go value of type []unstructured.Unstructured',
          ),
        );
        return out;
      }
      const parsed = new Set(
        examples.filter(isObj).map((e: Obj) => {
          const apiVersion = str(e['apiVersion']);
          const slash = apiVersion.indexOf('/');
          return `${slash < 0 ? '' : apiVersion.slice(0, slash)}|${slash < 0 ? apiVersion : apiVersion.slice(slash + 1)}|${str(e['kind'])}`;
        }),
      );
      const provided = providedApis(csv, out);
      for (const e of parsed)
        if (!provided.has(e)) out.push(errInvalidOperation('example must have a provided API', gvkOfKey(e)));
      for (const p of provided)
        if (!parsed.has(p))
          out.push(warnInvalidOperation('provided API should have an example annotation', gvkOfKey(p)));
      return out;
    },
  },
  {
    id: 'csv-install-modes',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error',
    doc: 'spec.installModes is set, at least one is supported, and only AllNamespaces when a webhook converts CRDs',
    run({ bundle }) {
      const csv = csvOf({ bundle });
      if (!csv) return [];
      const name = nameOf(csv);
      const modes = list(csv.spec['installModes']).map(obj);
      if (modes.length === 0) return [invalidCsv('Error', 'install modes not found', name)];
      const out: Finding[] = [];
      for (const hook of list(csv.spec['webhookdefinitions']).map(obj)) {
        if (list(hook['conversionCRDs']).length === 0) continue;
        const onlyAll = modes.every((m) =>
          m['type'] === 'AllNamespaces' ? m['supported'] === true : m['supported'] !== true,
        );
        if (!onlyAll)
          out.push(
            invalidCsv('Error', 'only AllNamespaces InstallModeType is supported when conversionCRDs is present', name),
          );
      }
      if (!modes.some((m) => m['supported'] === true))
        out.push(invalidCsv('Error', 'none of InstallModeTypes are supported', name));
      return out;
    },
  },
  {
    id: 'csv-min-kube-version',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error or Warning',
    doc: 'spec.minKubeVersion is set (warning) and is a semantic version (error)',
    run({ bundle }) {
      const csv = csvOf({ bundle });
      return csv ? minKubeVersion(csv) : [];
    },
  },
  {
    id: 'csv-required-fields',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error',
    doc: 'the fields the CSV type requires are set (spec.displayName, spec.install.strategy, its deployments)',
    run({ bundle }) {
      const csv = csvOf({ bundle });
      if (!csv) return [];
      const out: Finding[] = [];
      const spec = csv.spec;
      if (str(spec['displayName']) === '')
        out.push(errFieldMissing('required field missing', 'Spec.DisplayName', 'field'));
      const install = obj(spec['install']);
      if (
        Object.keys(install).length === 0 ||
        (str(install['strategy']) === '' && Object.keys(obj(install['spec'])).length === 0)
      ) {
        out.push(errFieldMissing('required field missing', 'Spec.InstallStrategy', 'struct'));
      } else {
        if (str(install['strategy']) === '')
          out.push(errFieldMissing('required field missing', 'Spec.InstallStrategy.StrategyName', 'field'));
        const strategySpec = obj(install['spec']);
        const nonEmpty =
          list(strategySpec['permissions']).length > 0 ||
          list(strategySpec['clusterPermissions']).length > 0 ||
          list(strategySpec['deployments']).length > 0;
        if (nonEmpty && list(strategySpec['deployments']).length === 0)
          out.push(
            errFieldMissing('required field missing', 'Spec.InstallStrategy.StrategySpec.DeploymentSpecs', 'field'),
          );
      }
      return out;
    },
  },
  {
    id: 'csv-annotation-names',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error or Warning',
    doc: "OLM's case-sensitive annotations are spelled right (error); olm.properties belongs in metadata/properties.yaml (warning)",
    run({ bundle }) {
      const csv = csvOf({ bundle });
      if (!csv) return [];
      const out: Finding[] = [];
      for (const key of Object.keys(obj(csv.metadata.annotations))) {
        const known = CASE_SENSITIVE.find((k) => k.toLowerCase() === key.toLowerCase());
        if (known !== undefined && known !== key)
          out.push(
            errFailedValidation(
              `provided annotation ${key} uses wrong case and should be ${known} instead`,
              nameOf(csv),
            ),
          );
        if (key === 'olm.properties')
          out.push(
            warnPropertiesAnnotation(
              `found ${key} annotation, please define these properties in metadata/properties.yaml instead`,
            ),
          );
      }
      return out;
    },
  },
  {
    id: 'csv-type-meta',
    validator: 'ClusterServiceVersionValidator',
    level: 'Error',
    doc: 'apiVersion and kind are set',
    run({ bundle }) {
      const csv = csvOf({ bundle });
      if (!csv) return [];
      const out: Finding[] = [];
      const apiVersion = str(csv['apiVersion']);
      if (apiVersion.slice(apiVersion.indexOf('/') + 1) === '')
        out.push(invalidCsv('Error', "'apiVersion' is missing", nameOf(csv)));
      if (str(csv['kind']) === '') out.push(invalidCsv('Error', "'kind' is missing", nameOf(csv)));
      return out;
    },
  },
];

function minKubeVersion(csv: Csv): Finding[] {
  const v = str(csv.spec['minKubeVersion']).trim();
  if (v === '') return [invalidCsv('Warning', MIN_KUBE_VERSION_WARNING, nameOf(csv))];
  if (parseSemver(str(csv.spec['minKubeVersion'])) === undefined)
    return [
      invalidCsv(
        'Error',
        `csv.Spec.MinKubeVersion has an invalid value: ${str(csv.spec['minKubeVersion'])}`,
        nameOf(csv),
      ),
    ];
  return [];
}

/** Go's json error with the text up to where it failed, as operator-framework/api reports it. */
function jsonProblem(text: string, error: Error): string {
  const at = /position (\d+)/.exec(error.message);
  const offset = at ? Number(at[1]) + 1 : text.length;
  return `invalid character at ${offset}\n ${text.slice(0, offset)}<--(see the invalid character)`;
}
