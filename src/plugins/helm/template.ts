/**
 * Turns a Kubernetes object into the text of a Helm template. The object is edited as data: a
 * scalar that must become a Helm expression is replaced by a `value()` token, and a map key whose
 * whole entry must become template lines (a conditional list, a `toYaml` of values) by a
 * `block()` token. The object is then written as YAML, any `{{` already in it is escaped so Helm
 * prints it literally, and the tokens are swapped for their expressions and lines.
 */
import { stringify } from 'yaml';

/** Lines of a block, given the column its key stands at (for `nindent`). */
export type BlockLines = (indent: number) => string[];

const VALUE = /__tsopv(\d+)__/g;
const BLOCK = /^( *)(- )?__tsopb(\d+)__: .*$/gm;

export class HelmTemplate {
  private readonly values: string[] = [];
  private readonly blocks: BlockLines[] = [];

  /** A scalar (or part of one) that renders as `expression`, e.g. `{{ .Release.Namespace }}`. */
  value(expression: string): string {
    return `__tsopv${this.values.push(expression) - 1}__`;
  }

  /** A map key whose entry is replaced by `lines` at the key's indentation. */
  block(lines: BlockLines): string {
    return `__tsopb${this.blocks.push(lines) - 1}__`;
  }

  /** The template: the object as YAML, wrapped in `{{- if condition }}` when given. */
  render(object: unknown, condition?: string): string {
    let text = stringify(object, { lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
    // Text the object carries (a description, an annotation) must reach the cluster unchanged.
    text = text.replaceAll('{{', '{{ "{{" }}');
    text = text.replace(BLOCK, (_m, indent: string, dash: string | undefined, i: string) => {
      const lines = this.blocks[Number(i)]!(indent.length + (dash ? 2 : 0));
      return lines.map((line, n) => (line.startsWith('{{-') ? '' : indent + (dash ? (n === 0 ? '- ' : '  ') : '')) + line).join('\n');
    });
    text = text.replace(VALUE, (_m, i: string) => this.values[Number(i)]!);
    return condition ? `{{- if ${condition} }}\n${text}{{- end }}\n` : text;
  }
}

/** The lines of `value` written as YAML (for blocks that keep part of the original object). */
export function yamlLines(value: unknown): string[] {
  return stringify(value, { lineWidth: 0, indentSeq: false }).trimEnd().split('\n');
}
