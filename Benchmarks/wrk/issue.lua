-- POST a new loyalty pass on every request (each one a 201, a serial number of its own); ADMIN is
-- the admin token, SERIAL_PREFIX (default issued) keeps the serial numbers of two wrk runs apart.
dofile("Benchmarks/wrk/numbered.lua")
function request()
  local n = numbered()
  local body = string.format('{"template":"loyalty","serialNumber":"%s-%d-%d","data":{"member":{"id":"M-%d","name":"Ada"},"points":%d,"tier":"Gold"}}',
    os.getenv("SERIAL_PREFIX") or "issued", tid, n, n, n)
  return wrk.format("POST", "/api/v1/passes", {["Authorization"] = "Bearer " .. os.getenv("ADMIN"), ["Content-Type"] = "application/json"}, body)
end
