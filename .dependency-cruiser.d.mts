import type { IConfiguration, IForbiddenRuleType } from 'dependency-cruiser';

export interface Layer {
  layer: number;
  folders: string[];
}
export function layersFromBook(page?: string): Layer[];
export function rules(layers?: Layer[]): IForbiddenRuleType[];
export const RUNTIME_FILE_IMPORTS: ReadonlyArray<{ from: string; module: string; to: string; why: string }>;
export const OPTIONAL_RUNTIME_MODULES: readonly string[];
declare const config: IConfiguration;
export default config;
