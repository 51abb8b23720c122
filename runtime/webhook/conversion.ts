/**
 * Conversion, hub and spoke (controller-runtime's conversion.Hub / Convertible): each kind has
 * one hub version, and every other (spoke) version converts to and from the hub. Converting
 * spoke A to spoke B goes through the hub. One ConversionReview v1 handler at /convert serves
 * every registered kind; a conversion that throws fails the whole review with its message.
 */
import { gvkFromApiVersion, type ClientObject, type KubeObject } from '../apimachinery/model.js';
import { conversionReview, parseConversionReview, type ConversionResponse } from './review.js';
import type { WebhookHandler } from './server.js';

export type KindRefLike = { apiVersion: string; kind: string } | { group: string; version: string; kind: string };

export interface Spoke<S extends ClientObject = KubeObject, H extends ClientObject = KubeObject> {
  kind: KindRefLike;
  /**
   * Fills `hub` (apiVersion, kind and a copy of metadata already set) from `spoke`; may instead
   * return the hub object.
   */
  convertTo(spoke: S, hub: H): void | H;
  /** Fills `spoke` (apiVersion, kind and metadata set) from `hub`; may instead return it. */
  convertFrom(hub: H, spoke: S): void | S;
}

export interface HubAndSpokes {
  hub: KindRefLike;
  /** Each converter may name its own object types (methods are checked bivariantly). */
  spokes: Spoke[];
}

/**
 * The same, with converters typed by a project's classes or client-node models as they are (no
 * `& KubeObject`); `add` and `conversionFor` take either form.
 */
export interface TypedHubAndSpokes {
  hub: KindRefLike;
  spokes: Spoke<ClientObject, ClientObject>[];
}

export function apiVersionOfRef(ref: KindRefLike): string {
  if ('apiVersion' in ref) return ref.apiVersion;
  return ref.group ? `${ref.group}/${ref.version}` : ref.version;
}

/** A conversion the handler cannot do (unknown kind or version). */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

interface KindEntry {
  hubApiVersion: string;
  spokes: Map<string, Spoke>;
}

/** Every kind converted by one server, keyed by `<group>/<Kind>`. */
export class ConversionRegistry {
  private readonly kinds = new Map<string, KindEntry>();

  add(def: HubAndSpokes): void;
  add(def: TypedHubAndSpokes): void;
  add(def: HubAndSpokes | TypedHubAndSpokes): void {
    const hubApiVersion = apiVersionOfRef(def.hub);
    const { group, kind } = gvkFromApiVersion(hubApiVersion, def.hub.kind);
    const key = `${group}/${kind}`;
    if (this.kinds.has(key))
      throw new ConversionError(
        `conversion for ${kind}.${group} is already registered; call conversionFor once per kind`,
      );
    const spokes = new Map<string, Spoke>();
    for (const s of def.spokes) {
      const v = apiVersionOfRef(s.kind);
      const sgvk = gvkFromApiVersion(v, s.kind.kind);
      if (sgvk.group !== group || sgvk.kind !== kind)
        throw new ConversionError(`spoke ${s.kind.kind} ${v} is not a version of ${kind}.${group}`);
      if (v === hubApiVersion) throw new ConversionError(`${v} is the hub of ${kind}; it cannot be a spoke too`);
      spokes.set(v, s as Spoke);
    }
    this.kinds.set(key, { hubApiVersion, spokes });
  }

  /** Converts one object to `desiredAPIVersion`. */
  convert(obj: KubeObject, desiredAPIVersion: string): KubeObject {
    const from = obj.apiVersion ?? '';
    const gvk = gvkFromApiVersion(from, obj.kind ?? '');
    const entry = this.kinds.get(`${gvk.group}/${gvk.kind}`);
    const label = `${gvk.kind}.${gvk.group} "${obj.metadata?.name ?? ''}"`;
    if (!entry) throw new ConversionError(`${label}: no conversion is registered for this kind`);
    if (from === desiredAPIVersion) return obj;
    const spokeOf = (v: string): Spoke => {
      const s = entry.spokes.get(v);
      if (!s)
        throw new ConversionError(`${label}: ${v} is neither the hub (${entry.hubApiVersion}) nor a registered spoke`);
      return s;
    };
    const shell = (apiVersion: string): KubeObject => ({
      apiVersion,
      kind: gvk.kind,
      metadata: structuredClone(obj.metadata ?? {}),
    });
    const step = (target: KubeObject, ret: void | KubeObject, apiVersion: string): KubeObject => {
      const out = ret ?? target;
      return { ...out, apiVersion, kind: gvk.kind };
    };
    const input = structuredClone(obj);
    const hub =
      from === entry.hubApiVersion
        ? input
        : (() => {
            const h = shell(entry.hubApiVersion);
            return step(h, spokeOf(from).convertTo(input, h), entry.hubApiVersion);
          })();
    if (desiredAPIVersion === entry.hubApiVersion) return hub;
    const target = shell(desiredAPIVersion);
    return step(target, spokeOf(desiredAPIVersion).convertFrom(hub, target), desiredAPIVersion);
  }

  /** The ConversionReview v1 handler for /convert. */
  handler(): WebhookHandler {
    return async (body, ctx) => {
      const req = parseConversionReview(body);
      let response: ConversionResponse;
      try {
        const convertedObjects = req.objects.map((o) => this.convert(o, req.desiredAPIVersion));
        response = { uid: req.uid, convertedObjects, result: { status: 'Success' } };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        ctx.log.info({ uid: req.uid, reason: message }, 'conversion failed');
        response = { uid: req.uid, convertedObjects: [], result: { status: 'Failure', message } };
      }
      return { status: 200, body: conversionReview(response) };
    };
  }
}
