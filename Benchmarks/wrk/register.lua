-- POST register with a new device library identifier on every request (each one a 201); DEVICE_PREFIX
-- (default bench) keeps the identifiers of two wrk runs at once apart.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function request()
  n = n + 1
  local path = string.format("/wallet/v1/devices/%s-%d-%d/registrations/%s/%s", os.getenv("DEVICE_PREFIX") or "bench", tid, n, os.getenv("PASS_TYPE"), os.getenv("SERIAL"))
  return wrk.format("POST", path, {["Authorization"] = "ApplePass " .. os.getenv("TOKEN"), ["Content-Type"] = "application/json"}, '{"pushToken":"0123456789abcdef0123456789abcdef"}')
end
