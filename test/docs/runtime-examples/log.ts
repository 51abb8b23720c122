/** JSON lines on stdout, and a child logger that carries its fields on every line. */
import { createLogger, parseLogLevel } from '../../../runtime/log/index.js';

const log = createLogger({
  level: parseLogLevel(process.env['LOG_LEVEL'] ?? 'info'),
});
log.info({ version: '0.1.0' }, 'starting');

// In a reconcile you get one already: ctx.log has the controller, the object
// and the reconcile ID.
const backup = log.child({ component: 'backup' });
backup.warn({ bucket: 'nightly' }, 'bucket is almost full');
