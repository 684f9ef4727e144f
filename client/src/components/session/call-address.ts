// An address of one call of the session, `?line=N`: which call it points at (its lines are asked for only
// then, or when a row's link is copied: a big log's page loads its outline alone), and each call's line.
import { useSearchParams } from '@solidjs/router';
import { createMemo } from 'solid-js';
import { getCallLines } from '../../api/endpoints.ts';
import { createApiResource } from '../../data/createApiResource.ts';
import { callAtLine, lineParam } from '../../lib/call-link.ts';

export function createCallAddress(sessionKey: () => string) {
  const [search] = useSearchParams();
  const callLines = createApiResource(
    () => lineParam(search.line) !== null && sessionKey(),
    (k, signal) => getCallLines(k, { signal }),
    { topics: ['sessions'], about: (k) => k },
  );
  /** The call the address points at (its n); null without one. */
  const linked = createMemo(() => {
    const line = lineParam(search.line);
    const lines = callLines.data()?.lines;
    return line === null || !lines ? null : callAtLine(lines, line);
  });
  /** The line of call n's request, asked for when not held. */
  const lineOf = async (n: number): Promise<number | null> => {
    const held = callLines.data()?.lines;
    if (held && n < held.length) return held[n] ?? null;
    return (await getCallLines(sessionKey())).lines[n] ?? null;
  };
  return { linked, lineOf };
}
