// The SDK's ReadableSpan of a plain span (spans.ts), which is what the official transformer and exporter take.
// Kept apart from the mapping so that a worker can send plain data and the main thread wrap it cheaply.
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { SessionTrace } from './spans.ts';

export function readableSpans(trace: SessionTrace): ReadableSpan[] {
  const resource = resourceFromAttributes(trace.resource);
  return trace.spans.map((s) => ({
    name: s.name,
    kind: s.kind,
    spanContext: () => s.context,
    parentSpanContext: s.parent,
    startTime: s.startTime,
    endTime: s.endTime,
    status: s.status,
    attributes: s.attributes,
    links: [],
    events: s.events,
    duration: s.duration,
    ended: true,
    resource,
    instrumentationScope: trace.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  }));
}
