/**
 * webhook: admission (defaulting, validation) and conversion webhooks served over HTTPS by the
 * manager — controller-runtime's webhook, webhook/admission and webhook/conversion packages. The
 * project's main.ts makes the server (webhookServerFromFlags) and passes it to createManager.
 */
export {
  webhookFor,
  conversionFor,
  webhookPath,
  CONVERSION_PATH,
  WebhookBuilder,
  WebhookBuilderError,
  type WebhookHost,
} from './builder.js';
export {
  defaultingHandler,
  validatingHandler,
  denial,
  type AdmissionContext,
  type CustomDefaulter,
  type CustomValidator,
  type Warnings,
} from './admission.js';
export {
  ConversionRegistry,
  ConversionError,
  type HubAndSpokes,
  type TypedHubAndSpokes,
  type Spoke,
  type KindRefLike,
} from './conversion.js';
export { FieldError, ValidationError, type GroupKindRef } from './errors.js';
export { createPatch, escapePointerToken, type JsonPatchOperation } from './jsonpatch.js';
export {
  MalformedReviewError,
  parseAdmissionReview,
  parseConversionReview,
  type AdmissionRequest,
  type AdmissionRequestInfo,
  type AdmissionResponse,
  type ConversionRequest,
  type ConversionResponse,
  type Operation,
  type Status as ReviewStatus,
  type UserInfo as AdmissionUserInfo,
} from './review.js';
export {
  WebhookServer,
  DuplicateWebhookPathError,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_WEBHOOK_PORT,
  type WebhookServerOptions,
  type WebhookServerDeps,
  type WebhookHandler,
  type WebhookReply,
  type WebhookRequestContext,
} from './server.js';
export { SelfProvisioner, type SelfProvisionOptions } from './self-provision.js';
export { webhookServerFromFlags } from './flags.js';
export { WebhookMetrics } from './metrics.js';
