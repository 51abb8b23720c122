/**
 * Which kinds a ring shards. A sharded controller's For kind is reconciled ("main": hashed on
 * its own name, drained before it moves); the kinds it owns follow their controller owner. A
 * kind is cached per shard once sharded, so a controller that is not sharded may not watch it
 * (its cache would hold one replica's share), and a kind cannot be both reconciled and owned.
 * Registration only records and reports problems, in the builder's words; it does no I/O.
 */
import { apiVersionOf, type GroupVersionKind } from '../apimachinery/model.js';
import type { RESTMapper } from '../restmapper/index.js';
import { groupKind, type MainKinds } from './keys.js';

export type KindRole = 'reconciled' | 'owned';

export interface ShardedKind {
  gvk: GroupVersionKind;
  role: KindRole;
  /** Controllers that shard it, for messages. */
  controllers: string[];
}

function label(gvk: GroupVersionKind): string {
  return `${apiVersionOf(gvk)}/${gvk.kind}`;
}

export class ShardedKinds {
  private readonly kinds = new Map<string, ShardedKind>();
  /** Kinds unsharded controllers watch, with the first controller that does. */
  private readonly unsharded = new Map<string, string>();

  /** The problems with sharding `controller` (For `forGvk`, owning `owned`); records it when there are none. */
  claim(controller: string, forGvk: GroupVersionKind, owned: readonly GroupVersionKind[]): string[] {
    const problems: string[] = [];
    const wanted: Array<[GroupVersionKind, KindRole]> = [
      [forGvk, 'reconciled'],
      ...owned.map((g): [GroupVersionKind, KindRole] => [g, 'owned']),
    ];
    for (const [gvk, role] of wanted) {
      const gk = groupKind(gvk);
      const other = this.unsharded.get(gk);
      if (other) {
        problems.push(
          `${label(gvk)} is watched by controller "${other}", which is not sharded: a sharded kind is cached per replica; shard "${other}" too, or read ${gvk.kind} with client.apiReader()`,
        );
      }
      const have = this.kinds.get(gk);
      if (have && have.role !== role) {
        problems.push(
          `${label(gvk)} would be both reconciled and owned by sharded controllers ("${have.controllers.join('", "')}" and "${controller}"): ` +
            'an object follows either its own name or its owner to a shard, not both',
        );
      }
    }
    if (problems.length > 0) return problems;
    for (const [gvk, role] of wanted) {
      const gk = groupKind(gvk);
      const have = this.kinds.get(gk);
      if (have) have.controllers.push(controller);
      else this.kinds.set(gk, { gvk, role, controllers: [controller] });
    }
    return [];
  }

  /** The problems with a controller that is not sharded watching `gvks`; records them when there are none. */
  claimUnsharded(controller: string, gvks: readonly GroupVersionKind[]): string[] {
    const problems = gvks
      .filter((gvk) => this.kinds.has(groupKind(gvk)))
      .map((gvk) => {
        const k = this.kinds.get(groupKind(gvk))!;
        return (
          `${label(gvk)} is sharded (by controller "${k.controllers[0]}"), so each replica caches ` +
          `only its share of it; controller "${controller}" is not sharded and would see that share ` +
          `only: shard it, or read ${gvk.kind} with client.apiReader()`
        );
      });
    if (problems.length > 0) return problems;
    for (const gvk of gvks) if (!this.unsharded.has(groupKind(gvk))) this.unsharded.set(groupKind(gvk), controller);
    return [];
  }

  get(gvk: Pick<GroupVersionKind, 'group' | 'kind'>): ShardedKind | undefined {
    return this.kinds.get(groupKind(gvk));
  }

  byGroupKind(gk: string): ShardedKind | undefined {
    return this.kinds.get(gk);
  }

  all(): ShardedKind[] {
    return [...this.kinds.values()];
  }

  reconciled(): ShardedKind[] {
    return this.all().filter((k) => k.role === 'reconciled');
  }

  owned(): ShardedKind[] {
    return this.all().filter((k) => k.role === 'owned');
  }

  /** The reconciled kinds with their scope, from discovery. */
  async mainKinds(mapper: RESTMapper): Promise<MainKinds> {
    const out = new Map<string, { namespaced: boolean }>();
    for (const k of this.reconciled())
      out.set(groupKind(k.gvk), { namespaced: (await mapper.mapping(k.gvk)).namespaced });
    return out;
  }
}
