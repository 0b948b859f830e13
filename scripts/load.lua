-- wrk script: POST /api/turn write turns, as the page would send them.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local counter = 0
request = function()
  counter = counter + 1
  local body = string.format('{"action":{"verb":"write","name":"load-%d.txt","content":"Buy milk and bread %d"}}', counter % 64, counter)
  return wrk.format(nil, "/api/turn", nil, body)
end
