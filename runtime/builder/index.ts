/** builder: the fluent way to assemble a controller — For, Owns, Watches, filters, options. */

export { controllerFor, Builder, BuilderError } from './builder.js';
export type { BuilderOptions, WatchOptions, OwnsOptions } from './builder.js';
