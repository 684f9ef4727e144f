// The SDK's ReadableSpan of a plain span (spans.ts), which is what the official transformer and exporter take.
// Kept apart from the mapping so that a worker can send plain data and the main thread wrap it cheaply.
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Attributes } from '@opentelemetry/api';
import type { SessionTrace } from './spans.ts';

/** Resources by their attributes' JSON: sessions share a few, and a Resource is costly to make. */
const resources = new Map<string, Resource>();
const RESOURCES_MAX = 256;

function resourceOf(attributes: Attributes): Resource {
  const key = JSON.stringify(attributes);
  let resource = resources.get(key);
  if (resource === undefined) {
    if (resources.size >= RESOURCES_MAX) resources.clear();
    resources.set(key, (resource = resourceFromAttributes(attributes)));
  }
  return resource;
}

export function readableSpans(trace: SessionTrace): ReadableSpan[] {
  const resource = resourceOf(trace.resource);
  // Filled by push: map() makes another array shape once optimized, which deoptimizes the transformer.
  const out: ReadableSpan[] = [];
  for (const s of trace.spans) {
    out.push({
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
    });
  }
  return out;
}
