import type { Strings } from '../i18n/strings.js';
import { mayHaveArrived, type TransportFailure } from './post-event.js';

export interface FailureText {
  /** What the visitor reads. */
  text: string;
  /** What the site's developer should fix, for the console; only for failures a visitor cannot fix. */
  developerNote?: string;
}

/** Turns a failed request into words for the visitor (and, where it is a setup problem, the developer). */
export function describeFailure(failure: TransportFailure, strings: Strings): FailureText {
  const { status = 0 } = failure;
  if (status === 401 || status === 403) {
    return {
      text: strings.errorUnavailable,
      developerNote: `proxy refused upstream (${status} ${failure.message}): check AGENT_API_TOKEN, AGENT_HANDLE`,
    };
  }
  return {
    text: status >= 400 && status < 500 && status !== 408 && status !== 429
      ? strings.errorRejected
      : mayHaveArrived(failure) ? strings.noAnswer : failure.kind === 'network' ? strings.errorNetwork : strings.errorServer,
  };
}
