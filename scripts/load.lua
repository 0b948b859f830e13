-- wrk script: POST /api/turn write turns, as the page would send them.
-- Every answer that is not a done write (a non-2xx status, or a 2xx whose
-- body lacks "ok":true, such as a refusal) is counted, so a run of refusals
-- cannot pass for speed: `done` prints the count, and scripts/load fails on it.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local counter = 0
local threads = {}

setup = function(thread)
  table.insert(threads, thread)
end

init = function()
  refused = 0
  done_ok = 0
end

request = function()
  counter = counter + 1
  local body = string.format('{"action":{"verb":"write","name":"load-%d.txt","content":"Buy milk and bread %d"}}', counter % 64, counter)
  return wrk.format(nil, "/api/turn", nil, body)
end

response = function(status, headers, body)
  if status >= 200 and status < 300 and string.find(body, '"ok":true', 1, true) then
    done_ok = done_ok + 1
  else
    refused = refused + 1
  end
end

done = function(summary, latency, requests)
  local ok, bad = 0, 0
  for _, thread in ipairs(threads) do
    ok = ok + thread:get("done_ok")
    bad = bad + thread:get("refused")
  end
  io.write(string.format("done writes: %d, not done (refused or failed): %d\n", ok, bad))
end
