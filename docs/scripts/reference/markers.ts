/**
 * The marker reference, one section per marker of the catalog (src/codegen/markers): its
 * decorator and arguments, the controller-gen marker it mirrors, where it may stand, its doc,
 * its example, and what that example generates (marker-examples.ts runs the generator on it).
 */
import { MARKERS, type MarkerDef } from '../../../src/codegen/markers/index.js';
import { escapeText } from './cli.js';
import { markerExample, MarkerExampleError, type MarkerExample } from './marker-examples.js';

export const anchorOf = (name: string): string => name.toLowerCase();

function where(m: MarkerDef): string {
  switch (m.target) {
    case 'schema':
      return m.on === 'field'
        ? 'a field'
        : m.on === 'type'
          ? 'a class used as a field type'
          : 'a field, or a class used as a field type';
    case 'kind':
      return 'a <code>@Resource</code> class (one version of a kind)';
    case 'controller':
      return 'a controller class';
    case 'webhook':
      return 'a defaulter or validator class';
  }
}

/** One marker's section; throws MarkerExampleError (with the marker's name) when its example does not generate. */
export function markerSection(m: MarkerDef): string {
  let example: MarkerExample;
  try {
    example = markerExample(m);
  } catch (err) {
    if (err instanceof MarkerExampleError)
      throw new MarkerExampleError(`@${m.name}: its catalog example does not generate: ${err.message}`);
    throw err;
  }
  const md = [
    `## \`@${m.name}\` {#${anchorOf(m.name)}}`,
    '',
    `<p class="marker-meta">mirrors <code>${escapeText(m.controllerGen)}</code> · stands on ${where(m)}</p>`,
    '',
    escapeText(m.doc),
    '',
    '```ts',
    `@${m.name}${m.args.usage}`,
    '```',
    '',
    'Example:',
    '',
    '```ts',
    example.source,
    '```',
    '',
  ];
  if (example.yaml.trim() === '')
    md.push('It changes nothing in the generated manifests by itself (see its description above).', '');
  else md.push(`generates, in ${example.output}:`, '', '```yaml', example.yaml.trimEnd(), '```', '');
  return md.join('\n');
}

export const markerNames = (): string[] => MARKERS.map((m) => m.name);

export function markerByNameOrThrow(name: string): MarkerDef {
  const m = MARKERS.find((x) => x.name === name);
  if (!m) throw new MarkerExampleError(`no marker @${name} in the catalog`);
  return m;
}

/** The marker → decorator table of the migration guide: one row per catalog entry, linked to its section. */
export function migrationTable(pageOf: (name: string) => string | undefined): string {
  const rows = MARKERS.map((m) => {
    const page = pageOf(m.name);
    const decorator = page ? `[\`@${m.name}\`](/reference/markers/${page}#${anchorOf(m.name)})` : `\`@${m.name}\``;
    return `| \`${m.controllerGen.replace(/\|/g, '\\|')}\` | ${decorator} | ${where(m)} |`;
  });
  return ['| controller-gen marker | tsop decorator | stands on |', '|---|---|---|', ...rows, ''].join('\n');
}
