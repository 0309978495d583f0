-- wrk script for scripts/load_test.sh: POSTs the pages of a directory to
-- /extract in turn (each connection's thread starts at its own offset),
-- and counts the responses by status.
-- Usage: wrk ... -s scripts/load_test.lua URL -- PAGE_DIR

local bodies = {}
local next_page = 0
statuses = {}

local threads = {}

function setup(thread)
  thread:set("offset", #threads * 37)
  table.insert(threads, thread)
end

function init(args)
  local dir = args[1]
  local list = io.popen('ls "' .. dir .. '"')
  for name in list:lines() do
    local f = assert(io.open(dir .. "/" .. name, "rb"))
    bodies[#bodies + 1] = f:read("*a")
    f:close()
  end
  list:close()
  assert(#bodies > 0, "no pages in " .. dir)
  next_page = (offset or 0) % #bodies
end

function request()
  next_page = next_page % #bodies + 1
  return wrk.format("POST", "/extract?format=json",
    { ["Content-Type"] = "text/html" }, bodies[next_page])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do
      total[status] = (total[status] or 0) + n
    end
  end
  local keys = {}
  for status in pairs(total) do keys[#keys + 1] = status end
  table.sort(keys)
  for _, status in ipairs(keys) do
    io.write(string.format("status %d: %d\n", status, total[status]))
  end
  io.write(string.format("socket errors: connect %d read %d write %d timeout %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
  io.write(string.format("latency p50 %.1f ms  p90 %.1f ms  p99 %.1f ms  max %.1f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("requests %d in %.1f s: %.1f requests/s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6)))
end
