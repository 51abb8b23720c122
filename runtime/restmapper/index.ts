/**
 * restmapper: kind → resource (plural, scope) from API discovery, and the URL paths built from a
 * mapping (client-go's `restmapper` over apimachinery's `meta.RESTMapping`). It asks the API
 * server through rest/, so it sits above it; the object model in apimachinery/ stays free of I/O.
 */
export {
  type ResourceMapping,
  type PathOptions,
  NoKindMatchError,
  RESTMapper,
  resourcePath,
  groupVersionPath,
} from './restmapper.js';
