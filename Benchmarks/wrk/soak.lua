-- A realistic Wallet mix for Benchmarks/soak.sh: 90% reads, 10% writes, over passes and devices that
-- exist (the seed file soak.sh writes: one "pass SERIAL TOKEN" or "device ID SERIAL" per line).
--
--   45% list serials   GET  /wallet/v1/devices/D/registrations/T[?passesUpdatedSince=SOAK_SINCE]  (200 or 204)
--   45% get pass       GET  /wallet/v1/passes/T/S, half with If-Modified-Since 0-10 s ago          (200 or 304)
--    5% register       POST /wallet/v1/devices/D/registrations/T/S, half new devices, half existing (201 or 200)
--    5% update         PATCH /api/v1/passes/T/S {"data":{"points":N}} with the admin token          (200)
--
-- Every response is counted by status class in its thread; done() adds the threads up and prints
-- one line "soak-status 1xx 2xx 3xx 4xx 5xx" for soak.sh to read (wrk's own counters do not tell 3xx
-- from 4xx).
local pass_type = os.getenv("PASS_TYPE")
local since = os.getenv("SOAK_SINCE")
local admin = "Bearer " .. os.getenv("SOAK_ADMIN_TOKEN")

local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

local passes, devices = {}, {}
local n = 0
function init(args)
  for line in io.lines(os.getenv("SOAK_SEED")) do
    local kind, a, b = line:match("^(%S+) (%S+) (%S+)$")
    if kind == "pass" then
      table.insert(passes, {serial = a, token = b})
    elseif kind == "device" then
      table.insert(devices, {device = a, serial = b})
    end
  end
  assert(#passes > 0 and #devices > 0, "soak.lua: empty seed file " .. os.getenv("SOAK_SEED"))
  for i, pass in ipairs(passes) do passes[pass.serial] = pass end
  math.randomseed(os.time() * 31 + id)
  s1, s2, s3, s4, s5 = 0, 0, 0, 0, 0
end

local function pass_at_random()
  return passes[math.random(#passes)]
end

local function hex_token()
  return string.format("%08x%08x%08x%08x", math.random(0, 0x7fffffff), math.random(0, 0x7fffffff), id, n)
end

function request()
  n = n + 1
  local r = math.random()
  if r < 0.45 then
    local device = devices[math.random(#devices)]
    local path = "/wallet/v1/devices/" .. device.device .. "/registrations/" .. pass_type
    if math.random() < 0.5 then path = path .. "?passesUpdatedSince=" .. since end
    return wrk.format("GET", path)
  elseif r < 0.90 then
    local pass = pass_at_random()
    local headers = {["Authorization"] = "ApplePass " .. pass.token}
    -- Like a device that fetched the pass a few seconds ago: 304 unless it was updated since.
    if math.random() < 0.5 then headers["If-Modified-Since"] = os.date("!%a, %d %b %Y %H:%M:%S GMT", os.time() - math.random(0, 10)) end
    return wrk.format("GET", "/wallet/v1/passes/" .. pass_type .. "/" .. pass.serial, headers)
  elseif r < 0.95 then
    local device, pass
    if math.random() < 0.5 then
      device, pass = string.format("soak-%d-%d", id, n), pass_at_random()
    else
      local existing = devices[math.random(#devices)]
      device, pass = existing.device, passes[existing.serial]
    end
    return wrk.format("POST", "/wallet/v1/devices/" .. device .. "/registrations/" .. pass_type .. "/" .. pass.serial,
      {["Authorization"] = "ApplePass " .. pass.token, ["Content-Type"] = "application/json"},
      '{"pushToken":"' .. hex_token() .. '"}')
  else
    local pass = pass_at_random()
    return wrk.format("PATCH", "/api/v1/passes/" .. pass_type .. "/" .. pass.serial,
      {["Authorization"] = admin, ["Content-Type"] = "application/json"},
      string.format('{"data":{"points":%d}}', math.random(0, 1000000)))
  end
end

function response(status, headers, body)
  local class = math.floor(status / 100)
  if class == 1 then s1 = s1 + 1
  elseif class == 2 then s2 = s2 + 1
  elseif class == 3 then s3 = s3 + 1
  elseif class == 4 then s4 = s4 + 1
  else s5 = s5 + 1 end
end

function done(summary, latency, requests)
  local t = {0, 0, 0, 0, 0}
  for _, thread in ipairs(threads) do
    for class = 1, 5 do t[class] = t[class] + thread:get("s" .. class) end
  end
  io.write(string.format("soak-status %d %d %d %d %d\n", t[1], t[2], t[3], t[4], t[5]))
end
