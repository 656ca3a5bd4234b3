// The log line of each token request: outcome, encoding, the endpoint's status and OAuth `error`,
// the diagnosed reason and the backoff; never the client secret, the form or the token. A switch
// of encoding is logged as a warning naming the one the endpoint accepted, so an operator can set
// the connection's token encoding to it and save the refused request on every restart.
import { VARIABLE_NAMES, type SettingNames } from '../config/connection-settings';
import type { Logger } from '../observability/logger';
import type { TokenRequestEvent } from './token-manager';
import { TOKEN_ENCODING_MEDIA_TYPE, type TokenEncoding } from './token-request';

export function logTokenRequest(
  logger: Logger,
  event: TokenRequestEvent,
  configured: TokenEncoding,
  names: SettingNames = VARIABLE_NAMES,
): void {
  const fields = {
    outcome: event.outcome,
    encoding: event.encoding,
    ...(event.status === undefined ? {} : { status: event.status }),
    ...(event.reason ? { cause: event.reason } : {}),
    ...(event.oauthError ? { oauthError: event.oauthError } : {}),
    ...(event.retryInMs === undefined ? {} : { retryInMs: event.retryInMs }),
  };
  if (event.switchedFrom) {
    logger.warn(
      { ...fields, configured, accepted: event.encoding },
      `token endpoint refused ${TOKEN_ENCODING_MEDIA_TYPE[event.switchedFrom]} and took ${TOKEN_ENCODING_MEDIA_TYPE[event.encoding]}; set ${names.of('tokenEncoding')} to ${event.encoding}`,
    );
    return;
  }
  if (event.outcome === 'success') logger.info(fields, 'token request');
  else logger.warn(fields, 'token request failed');
}
