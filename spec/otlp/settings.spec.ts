// Where ended sessions go, from the options and the standard variables: the flag wins, the traces variable
// is used as is, the base gets /v1/traces; headers are name=value pairs, URL-decoded; refusals say the fix.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cacheDirOf, otlpSettings, type OtlpOptions } from '../../server/otlp/settings.ts';

const settings = suite('otlp settings');
const none: OtlpOptions = { endpoint: null, since: null, endedAfter: null, queue: null };
const of = (o: Partial<OtlpOptions>, env: NodeJS.ProcessEnv = {}) => otlpSettings({ ...none, ...o }, env, '/c', '/d');

settings('no endpoint: not streaming; --otlp-since alone is refused', () => {
  assert.is(of({}), null);
  assert.throws(() => of({ since: '2026-01-01' }), /needs an endpoint/);
});

settings('the flag wins over the variables; a base gets /v1/traces, the traces variable is kept as is', () => {
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom' };
  assert.is(of({ endpoint: 'http://flag:4318' }, env)!.url, 'http://flag:4318/v1/traces');
  assert.is(of({}, env)!.url, 'http://traces:4318/custom');
  assert.is(of({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://base.example/otlp/' })!.url, 'https://base.example/otlp/v1/traces');
  assert.is(of({ endpoint: 'http://h:4318/v1/traces' })!.url, 'http://h:4318/v1/traces');
});

settings('headers, protocol, since, the rule and the bound', () => {
  const s = of(
    { endpoint: 'http://h:4318', since: '2026-09-01', endedAfter: '60', queue: '5' },
    { OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team=7', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  )!;
  assert.equal(s.headers, { authorization: 'Bearer abc', 'x-team': '7' });
  assert.equal([s.protocol, s.sinceMs, s.endedAfterMs, s.queueMax], ['http/json', Date.UTC(2026, 8, 1), 60_000, 5]);
  assert.is(of({ endpoint: 'http://h' })!.protocol, 'http/protobuf');
  assert.match(s.sentFile, /^\/c\/otlp-sent-[0-9a-f]{16}\.json$/);
});

settings('refusals name the option and what to write', () => {
  assert.throws(() => of({ endpoint: 'ftp://h' }), /--otlp-endpoint: expected an http/);
  assert.throws(() => of({ endpoint: 'not a url' }), /--otlp-endpoint: not a URL/);
  assert.throws(() => of({ endpoint: 'http://h', since: 'soon' }), /--otlp-since "soon"/);
  assert.throws(() => of({ endpoint: 'http://h' }, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), /expected http\/protobuf or http\/json/);
  assert.throws(() => of({ endpoint: 'http://h' }, { OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }), /name=value/);
  assert.throws(() => of({ endpoint: 'http://h', queue: '-1' }), /--otlp-queue/);
});

settings('the cache directory is XDG_CACHE_HOME\'s, else ~/.cache', () => {
  assert.is(cacheDirOf({ XDG_CACHE_HOME: '/x' }, '/home/u'), '/x/engine-console');
  assert.is(cacheDirOf({}, '/home/u'), '/home/u/.cache/engine-console');
});

settings.run();
