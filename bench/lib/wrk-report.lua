-- wrk script of bench/http-throughput.ts: after a run, one line of JSON that bench/lib/load-generator.ts
-- parses (wrk's own text summary rounds its figures).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,' ..
      '"status":%d,"timeout":%d,"meanUs":%.1f,"p50Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency.mean, latency:percentile(50), latency:percentile(99), latency.max))
end
