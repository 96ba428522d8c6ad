-- wrk script of benchmarks/bench_server.py: paced bet requests for the players in players.lua.
-- Loaded with PLAYERS = {{token, table}, ...}, RATE (requests/s per wrk thread), BETS (bets per request)
-- set by the bench in a prelude file (wrk passes no arguments to a script's globals before setup); BURST (optional)
-- the burst schedule.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } wrk_timespec;
int clock_gettime(int clk_id, wrk_timespec *tp);
]]
local ts = ffi.new("wrk_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local threads = {}
local count = 0
local CHANCES = {"red", "black", "even", "odd"}

function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end

-- A player does not bet at a table the stream shows closed: a refusal of the phase (409 bet-closed, "table
-- ruleta-N: no va más ...", or wrong-phase, "table ruleta-N is settled ...": the pause before the next round)
-- marks that table closed for CLOSED_MS, and the next requests go to players of the other tables.
local CLOSED_MS = 600
local closed_until = {}

function init(args)
  ok, refused, failed, seq = 0, 0, 0, 0
  math.randomseed(id * 7919 + os.time())
  interval = 1000.0 / RATE
  nextt = now_ms() + math.random() * interval
end

-- The next free slot of this thread's schedule: an open loop while connections are free, never a burst of
-- more than a second to catch up.
function delay()
  local t = now_ms()
  nextt = math.max(nextt + interval, t - 1000)
  local d = nextt - t
  if d < 0 then return 0 end
  return d
end

-- Bursts (BURST set by the bench): a roulette floor's rhythm. Table i's no va más falls at T0 + (i/N + k) cycles
-- (the bench's croupier calls it on that schedule); SHARE of a round's bets arrive in its last LAST_MS, the rest
-- spread over the betting time before, none in the QUIET_MS after a no va más (the spin, settlement, reopening).
-- The tables being staggered, the summed rate stays the offered one while each table's is concentrated.
local function burst_table(t)
  local n = BURST.tables
  local early = (1 - BURST.share) / (BURST.cycle_ms - BURST.quiet_ms - BURST.last_ms)
  local late = BURST.share / BURST.last_ms
  local weights, total = {}, 0
  for i = 0, n - 1 do
    local left = (BURST.t0_ms + i * BURST.cycle_ms / n - t) % BURST.cycle_ms   -- ms to this table's no va más
    local w = early
    if left > BURST.cycle_ms - BURST.quiet_ms then w = 0 elseif left <= BURST.last_ms then w = late end
    weights[i] = w
    total = total + w
  end
  local x = math.random() * total
  for i = 0, n - 1 do
    x = x - weights[i]
    if x <= 0 then return i end
  end
  return n - 1
end

function request()
  seq = seq + 1
  local p = PLAYERS[math.random(#PLAYERS)]
  local t = now_ms()
  if BURST then
    local i = burst_table(t)      -- players are dealt to tables in turn: player k sits at table k % N
    p = PLAYERS[i + 1 + BURST.tables * math.random(0, math.floor(#PLAYERS / BURST.tables) - 1)]
  end
  for _ = 1, 20 do
    if BURST then break end
    local until_ms = closed_until[p[2]]
    if until_ms == nil or until_ms < t then break end
    p = PLAYERS[math.random(#PLAYERS)]
  end
  local bets = {}
  if BETS == 1 then
    if math.random() < 0.6 then
      bets[1] = string.format('{"kind":"straight","on":[%d],"amount":100}', math.random(0, 36))
    else
      bets[1] = string.format('{"kind":"%s","amount":100}', CHANCES[math.random(4)])
    end
  else
    local first = math.random(0, 36)
    for i = 1, BETS do
      bets[i] = string.format('{"kind":"straight","on":[%d],"amount":100}', (first + 3 * i) % 37)
    end
  end
  local headers = {
    ["Authorization"] = "Bearer " .. p[1],
    ["Idempotency-Key"] = string.format("w%d-%d-%d", id, seq, math.random(1000000000)),
    ["Content-Type"] = "application/json",
  }
  return wrk.format("POST", "/api/tables/" .. p[2] .. "/bets", headers, '{"bets":[' .. table.concat(bets, ",") .. ']}')
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
  elseif status == 409 then
    refused = refused + 1
    if body:find('"bet%-closed"') or body:find('"wrong%-phase"') then
      local table_id = body:match("table ([%w%-]+)[: ]")
      if table_id then closed_until[table_id] = now_ms() + CLOSED_MS end
    end
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local a, r, f = 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("ok"); r = r + t:get("refused"); f = f + t:get("failed")
  end
  local e = summary.errors
  io.write(string.format(
    'RESULT {"ok": %d, "refused": %d, "errors": %d, "socket_errors": %d, "requests": %d, "duration_us": %d, ' ..
    '"p50": %d, "p95": %d, "p99": %d, "max": %d}\n',
    a, r, f, e.connect + e.read + e.write + e.timeout, summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
