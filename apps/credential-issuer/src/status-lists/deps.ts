import type { Config } from '../config.js';
import type { StatusListPublisher } from './status-list-publisher.js';

/** What serving the Bitstring Status Lists needs from the app. */
export interface StatusListsDeps {
  config: Config;
  statusLists: StatusListPublisher;
}
