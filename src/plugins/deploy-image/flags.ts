/**
 * The flags deploy-image adds to `create api` (kubebuilder's names), each declared once: its help,
 * its rule, what PROJECT records of it under the plugin's `options` (kubebuilder's keys, as
 * strings) and how `alpha generate` reads it back. Light to load: `tsop --help` lists them.
 */
import { defineReplayedFlags, text } from '../../flag.js';
import { InvalidFlagError } from '../../project/naming.js';

/** What PROJECT records of a kind this plugin made: `plugins.<key>.resources[].options`. */
export type RecordedOptions = Readonly<Record<string, unknown>>;

/** A flag value as it goes into a one-line message: control characters escaped (JSON style). */
const shown = (value: string): string => JSON.stringify(value).slice(1, -1);

/** A decimal integer (an optional sign, digits), or undefined. */
function wholeNumber(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text.trim()) ? Number(text) : undefined;
}

/** `memcached,--memory-limit=64,-o,modern,-v` → the words (kubebuilder splits on commas and trims). */
export function commandArgs(command: string): string[] {
  return command
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
}

/** A recorded number or string, as the flag's text. */
const recordedText = (value: unknown): string | undefined => (value === undefined ? undefined : String(value));

export const DEPLOY_IMAGE_FLAGS = defineReplayedFlags<RecordedOptions>()({
  image: text<RecordedOptions>(
    'image',
    'deploy-image: the operand image the controller deploys (e.g. memcached:1.6.26-alpine)',
    {
      // An empty one is refused as missing, by the plugin's own check.
      check(image) {
        if (image !== '' && !/^[A-Za-z0-9][A-Za-z0-9._:@/-]*$/.test(image))
          throw new InvalidFlagError(
            'image',
            shown(image),
            'is not an image reference (letters, digits and . _ : @ / - only)',
            'use e.g. memcached:1.6.26-alpine',
          );
      },
      record: (image) => ({ image }),
      replay: (o) => (typeof o['image'] === 'string' ? o['image'] : undefined),
    },
  ),
  imageContainerCommand: text<RecordedOptions>(
    'words',
    'deploy-image: the container command, comma-separated (e.g. memcached,--memory-limit=64,-o,modern,-v)',
    {
      check(command) {
        if (commandArgs(command).length === 0)
          throw new InvalidFlagError(
            'image-container-command',
            shown(command),
            'names no command',
            'use comma-separated words, e.g. --image-container-command memcached,--memory-limit=64,-o,modern,-v',
          );
      },
      record: (command) => ({ containerCommand: command }),
      replay: (o) => (typeof o['containerCommand'] === 'string' ? o['containerCommand'] : undefined),
    },
  ),
  imageContainerPort: text<RecordedOptions>(
    'port',
    'deploy-image: the container port; adds a required spec.containerPort',
    {
      check(text) {
        const port = wholeNumber(text);
        if (port === undefined || port < 1 || port > 65535)
          throw new InvalidFlagError(
            'image-container-port',
            shown(text),
            'is not a port',
            'use an integer from 1 to 65535, e.g. --image-container-port 11211',
          );
      },
      record: (port) => ({ containerPort: String(Number(port)) }),
      replay: (o) => recordedText(o['containerPort']),
    },
  ),
  runAsUser: text<RecordedOptions>('uid', "deploy-image: the container's securityContext.runAsUser", {
    check(text) {
      const uid = wholeNumber(text);
      // A user id is an int64 in the pod spec; past 2^53 a JavaScript number would change it.
      if (uid === undefined || uid < 0 || !Number.isSafeInteger(uid))
        throw new InvalidFlagError(
          'run-as-user',
          shown(text),
          'is not a user id',
          'use an integer of 0 or more, e.g. --run-as-user 1001',
        );
    },
    record: (uid) => ({ runAsUser: String(Number(uid)) }),
    replay: (o) => recordedText(o['runAsUser']),
  }),
});
