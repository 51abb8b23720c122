/**
 * The FlightTicket API as the tutorial writes its CRD by hand: a ticket from one city to another,
 * with a seat count between 1 and 10, and the short name `ft`. (Copied by the e2e test over the
 * scaffolded file; the rest of the project is what `tsop create api` wrote.)
 */
import { Maximum, Minimum, PrintColumn, Resource, type int32, type ObjectMeta } from '../../runtime/markers/index.js';
import { groupVersion } from './groupversion.js';

/** FlightTicketSpec defines the desired state of FlightTicket. */
export class FlightTicketSpec {
  /** The city the flight leaves from. */
  from?: string;
  /** The city the flight lands in. */
  to?: string;
  /** How many seats the ticket holds. */
  @Minimum(1)
  @Maximum(10)
  number?: int32;
}

/** FlightTicket is the Schema for the flighttickets API. */
@Resource({ shortNames: ['ft'] })
@PrintColumn({ name: 'From', type: 'string', jsonPath: '.spec.from' })
@PrintColumn({ name: 'To', type: 'string', jsonPath: '.spec.to' })
@PrintColumn({ name: 'Number', type: 'integer', jsonPath: '.spec.number' })
export class FlightTicket {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: FlightTicketSpec;
}

/** Names FlightTicket objects in client calls and watches. */
export const flightTicketKind = {
  group: groupVersion.group,
  version: groupVersion.version,
  kind: 'FlightTicket',
} as const;
