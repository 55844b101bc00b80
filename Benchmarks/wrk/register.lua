-- POST register with a new device library identifier on every request (each one a 201); DEVICE_PREFIX
-- (default bench) keeps the identifiers of two wrk runs at once apart.
dofile("Benchmarks/wrk/numbered.lua")
function request()
  local path = string.format("/wallet/v1/devices/%s-%d-%d/registrations/%s/%s", os.getenv("DEVICE_PREFIX") or "bench", tid, numbered(), os.getenv("PASS_TYPE"), os.getenv("SERIAL"))
  return wrk.format("POST", path, {["Authorization"] = "ApplePass " .. os.getenv("TOKEN"), ["Content-Type"] = "application/json"}, '{"pushToken":"0123456789abcdef0123456789abcdef"}')
end
